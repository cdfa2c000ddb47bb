module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'upstream',
  rootDir: __dirname,
};
