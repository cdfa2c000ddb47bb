module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'client',
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/jest.setup.js'],
};
