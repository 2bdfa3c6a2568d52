// The entry of a build worker thread in a clone, where the worker modules are TypeScript, which
// Node 20 cannot run by itself (builder/threads.ts): register tsx in this thread, then import the
// module. The last two arguments are tsx's ESM API and the module, both as file URLs.
const [api, module] = process.argv.splice(-2, 2);
const tsx = await import(api);
tsx.register();
await import(module);
