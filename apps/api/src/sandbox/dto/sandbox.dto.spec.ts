import { validationPipe } from '../../common/http/validation';
import { AdvanceClockDto, CustomerConsentDto, CustomerTapDto, CustomerWritesDto, OtherToolDeleteDto, SandboxBrandDto } from './sandbox.dto';

const advance = (body: unknown): Promise<unknown> => validationPipe().transform(body, { type: 'body', metatype: AdvanceClockDto }) as Promise<unknown>;

describe('AdvanceClockDto', () => {
  it.each([['a string', 'x'], ['a numeric string', '60'], ['a boolean', true], ['an object', { seconds: 60 }]])(
    'refuses %s for advanceSeconds saying a number of seconds is expected',
    async (_, advanceSeconds) => {
      const failure: unknown = await advance({ advanceSeconds }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'BAD_REQUEST', message: 'advanceSeconds must be a number of seconds, such as 3600' });
    },
  );

  it('still names the range for a negative number', async () => {
    const failure: unknown = await advance({ advanceSeconds: -1 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'BAD_REQUEST', message: 'advanceSeconds must not be less than 0' });
  });

  it('takes a number of seconds', async () => {
    await expect(advance({ advanceSeconds: 3600 })).resolves.toEqual(Object.assign(new AdvanceClockDto(), { advanceSeconds: 3600 }));
  });
});

describe('the brandKey of the sandbox customer routes', () => {
  it.each([SandboxBrandDto, CustomerWritesDto, CustomerConsentDto, CustomerTapDto, OtherToolDeleteDto].map((dto) => [dto.name, dto] as const))(
    '%s refuses one longer than 200 characters, as every other brandKey, rather than looking it up (and echoing it back)',
    async (_, metatype) => {
      const failure: unknown = await validationPipe()
        .transform({ brandKey: 'k'.repeat(100_000) }, { type: 'body', metatype })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'BAD_REQUEST' });
      expect(String((failure as Error).message).split('; ')).toContain('brandKey must be shorter than or equal to 200 characters');
    },
  );
});
