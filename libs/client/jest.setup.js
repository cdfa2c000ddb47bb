// Every test here talks to the built service started as a process: more time than Jest's 5 s default.
// Set per file, since testTimeout in a project's config is not read when Jest runs all projects from the root.
jest.setTimeout(60_000);
