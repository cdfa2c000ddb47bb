const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

/** The tests run the built tool: make sure its oclif manifest matches the compiled commands. */
module.exports = () => {
  execFileSync(process.execPath, [join(__dirname, 'scripts', 'manifest.js')], { stdio: 'inherit' });
};
