// Every test here runs the tool and the service as processes (and Chromium): more time than Jest's 5 s default.
// Set per file, since testTimeout in a project's config is not read when Jest runs all projects from the root.
jest.setTimeout(60_000);
