describe('loadSharp', () => {
  afterEach(() => {
    jest.dontMock('sharp');
  });

  it('does not load sharp when the media modules are imported, only on first use, and only once', () => {
    const cache = jest.fn();
    const factory = jest.fn(() => Object.assign(jest.fn(), { cache }));
    jest.doMock('sharp', factory);
    jest.isolateModules(() => {
      require('./index'); // a fresh module registry needs require
      expect(factory).not.toHaveBeenCalled();
      const { loadSharp } = require('./load-sharp') as typeof import('./load-sharp');
      expect(loadSharp()).toBe(loadSharp());
    });
    expect(factory).toHaveBeenCalledTimes(1);
    expect(cache).toHaveBeenCalledWith(false);
  });
});
