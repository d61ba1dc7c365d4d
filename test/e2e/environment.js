// The end-to-end tests' jest environment: Node's, with the worker's own `process` within reach of the harness
// (test/e2e/harness.ts forgiveLateMonitorErrors), which must see the rejections Node reports, as jest itself does.
// A test's `process` is a copy of it (jest-util createProcessObject) whose listeners Node never calls.
const { TestEnvironment } = require("jest-environment-node");

class EndToEndEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    this.global.__workerProcess = process;
  }
}

module.exports = EndToEndEnvironment;
