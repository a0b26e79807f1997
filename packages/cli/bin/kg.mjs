#!/usr/bin/env node
// The installed `kg` command: the compiled CLI, bundled (`pnpm build`: tsc -b, then scripts/build-cli-bundle.mjs).
await import("../bundle/bin.js")
