module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'ai',
  rootDir: __dirname,
};
