import { getMetadataStorage } from 'class-validator';
import { SendTextDto } from '../../agent/send/dto/send-text.dto';
import { AppModule } from '../../app/app.module';
import { validationPipe } from './validation';

interface Constraint {
  name: string;
  async: boolean;
}

describe('the validation pipe', () => {
  it('validates synchronously, so every rule of every DTO must be synchronous (validateSync skips async rules)', () => {
    expect(AppModule).toBeDefined(); // every controller and so every DTO is loaded
    const storage = getMetadataStorage() as unknown as { constraintMetadatas: Map<unknown, Constraint[]> };
    const constraints = [...storage.constraintMetadatas.values()].flat();
    expect(constraints.length).toBeGreaterThan(10);
    expect(constraints.filter((c) => c.async).map((c) => c.name)).toEqual([]);
  });

  it('refuses a wrong body with BAD_REQUEST naming each field', async () => {
    const failure: unknown = await validationPipe()
      .transform({ brandKey: 7, userKey: 'u1', extra: true }, { type: 'body', metatype: SendTextDto })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'BAD_REQUEST' });
    const message = String((failure as Error).message);
    expect(message.split('; ').sort()).toEqual(['brandKey must be a string', 'property extra should not exist', 'text is required']);
  });

  it('gives one reason per field: a list where one value belongs, or the type before the range', async () => {
    const failure: unknown = await validationPipe()
      .transform({ brandKey: ['a', 'b'], userKey: 'u1', text: 5 }, { type: 'body', metatype: SendTextDto })
      .catch((error: unknown) => error);
    expect(String((failure as Error).message).split('; ').sort()).toEqual(['brandKey must be a string, not a list (a JSON array, or a form field given more than once)', 'text must be a string']);
  });

  it('lists the first ten reasons of a body with thousands of unknown fields, and how many more there are', async () => {
    const extra = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, i]));
    const failure: unknown = await validationPipe()
      .transform({ brandKey: 'acme-kakao', userKey: 'u1', text: 'hi', ...extra }, { type: 'body', metatype: SendTextDto })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'BAD_REQUEST' });
    const reasons = String((failure as Error).message).split('; ');
    expect(reasons).toEqual([...Array.from({ length: 10 }, (_, i) => `property f${i} should not exist`), 'and 9990 more']);
  });

  it('names an unknown field of 100,000 characters by its first 100', async () => {
    const name = 'n'.repeat(100_000);
    const failure: unknown = await validationPipe()
      .transform({ brandKey: 'acme-kakao', userKey: 'u1', text: 'hi', [name]: 1 }, { type: 'body', metatype: SendTextDto })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'BAD_REQUEST', message: `property ${'n'.repeat(100)}… should not exist` });
  });

  it('refuses control characters in every userKey, brandKey, brand and botEvent of every DTO, naming the field', async () => {
    expect(AppModule).toBeDefined(); // every controller and so every DTO is loaded
    const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<new () => object, Array<{ propertyName: string }>> };
    const identifiers = new Set(['userKey', 'brandKey', 'brand', 'botEvent']);
    const checked: string[] = [];
    const missing: string[] = [];
    for (const [target, metadatas] of storage.validationMetadatas) {
      for (const property of new Set(metadatas.map((m) => m.propertyName).filter((name) => identifiers.has(name)))) {
        checked.push(`${target.name}.${property}`);
        const failure: unknown = await validationPipe()
          .transform({ [property]: 'a\u0000b' }, { type: 'body', metatype: target })
          .catch((error: unknown) => error);
        if (!String((failure as Error | undefined)?.message).split('; ').includes(`${property} must not contain control characters`)) missing.push(`${target.name}.${property}`);
      }
    }
    expect(checked.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
