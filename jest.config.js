/** Runs every project's tests in one Jest process tree. */
module.exports = {
  projects: ['<rootDir>/libs/*/jest.config.js', '<rootDir>/apps/*/jest.config.js'],
  // a global option: Jest reads it from here, not from the projects' preset, when it runs them all
  testTimeout: 30_000,
  // Most suites wait on servers, processes and timers: two at once take about 60 % of the time one after the other
  // takes on two cores (Jest would run them one after the other there).
  maxWorkers: 2,
};
