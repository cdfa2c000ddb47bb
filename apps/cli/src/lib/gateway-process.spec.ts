import { terminate } from './gateway-process';

describe('stopping the gateway process', () => {
  afterEach(() => jest.restoreAllMocks());

  it("tells that a gateway of another user cannot be stopped, instead of reporting it stopped", async () => {
    jest.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' });
    });
    await expect(terminate(4242, 100)).rejects.toMatchObject({ code: 'GATEWAY_FAILED', message: 'the gateway (pid 4242) runs as another user, who may stop it; this user may not' });
  });

  it('takes a process that is gone already as exited', async () => {
    jest.spyOn(process, 'kill').mockImplementation(() => {
      throw Object.assign(new Error('kill ESRCH'), { code: 'ESRCH' });
    });
    await expect(terminate(4242, 100)).resolves.toBe('exited');
  });
});
