// A speech worker that cannot start (its engine does not load).
throw new Error("the engine's WASM did not load")
