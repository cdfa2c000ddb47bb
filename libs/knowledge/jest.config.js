module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'knowledge',
  rootDir: __dirname,
};
