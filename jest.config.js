/** Runs every project's tests in one Jest process tree. */
module.exports = {
  projects: ['<rootDir>/libs/*/jest.config.js', '<rootDir>/apps/*/jest.config.js'],
  // a global option: Jest reads it from here, not from the projects' preset, when it runs them all
  testTimeout: 30_000,
};
