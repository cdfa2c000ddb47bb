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
});
