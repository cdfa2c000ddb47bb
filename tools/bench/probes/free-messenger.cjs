/**
 * A what-if, never a figure of the service: preloaded into the API of the send scenario (`--require`) by
 * BENCH_FREE_MESSENGER=1, it answers every text send of the messenger client at once with success, without HTTP. The
 * send then costs what is the service's own (HTTP, auth, validation, billing, the journal, signals), which bounds what
 * any speed-up of the messenger call could give.
 */
const { createRequire } = require('node:module');
const { resolve } = require('node:path');

const fromApi = createRequire(resolve(__dirname, '../../../apps/api/dist/main.js'));
const { HttpMessengerClient } = fromApi('@brandwire/upstream');
HttpMessengerClient.prototype.writeText = () => Promise.resolve({ code: '0', message: null });
