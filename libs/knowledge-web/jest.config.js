module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'knowledge-web',
  rootDir: __dirname,
};
