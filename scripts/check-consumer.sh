#!/usr/bin/env bash
# The packages work from a fresh project outside the workspace: pack the seven packages (pnpm turns `workspace:*`
# into real versions and @kg/extraction's prepack ships the ontologies), install the tarballs into a new project in a
# temporary folder, type-check and run the library examples (examples/library/*.ts, copied unchanged) against the
# example corpus, then the example of each package's README (its first ts block under "## Example"), then the
# installed `kg` command. Ends with one line "consumer check: PASS (...)" or "consumer check: FAIL: ...", and exits
# non-zero on failure. Needs only the npm registry (pnpm's store makes it fast where the repository is installed).
#
#   scripts/check-consumer.sh            # KG_KEEP_CONSUMER=1 keeps the temporary project for a look afterwards
set -uo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd -P)"
started=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/kg-consumer.XXXXXX")"
work="$(cd "$work" && pwd -P)"
app="$work/app"
failures=()

cleanup() {
  # postpack removes @kg/extraction's copy of the ontologies; make sure an interrupted pack leaves none behind either.
  rm -rf "$repo/packages/extraction/ontologies"
  if [ "${KG_KEEP_CONSUMER:-}" = "1" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

fail() { failures+=("$*"); echo "FAIL: $*"; }
finish() {
  local secs=$((SECONDS - started))
  if [ "${#failures[@]}" -eq 0 ]; then
    echo "consumer check: PASS (${secs}s)"
    exit 0
  fi
  echo "consumer check: FAIL: ${failures[*]} (${secs}s)"
  exit 1
}
abort() { fail "$*"; finish; }

case "$work/" in "$repo/"*) abort "the temporary folder $work is inside the repository" ;; esac

step() { printf '\n-- %s (%ss)\n' "$*" "$((SECONDS - started))"; }

# ---------------------------------------------------------------------------------------------------------------
step "pack"
mkdir -p "$work/tarballs" "$app"
packages=(core extraction graph cluster server web cli)
for p in "${packages[@]}"; do
  (cd "$repo/packages/$p" && pnpm pack --pack-destination "$work/tarballs" >/dev/null) || abort "pnpm pack @kg/$p"
done
ls "$work/tarballs"
tarball() { ls "$work"/tarballs/kg-"$1"-*.tgz; }
listing="$(tar -tzf "$(tarball extraction)")"
grep -qx 'package/ontologies/research.shapes.ttl' <<<"$listing" ||
  abort "the @kg/extraction tarball has no ontologies/research.shapes.ttl (prepack did not run?)"
for p in "${packages[@]}"; do
  if grep -q '"workspace:' <<<"$(tar -xzOf "$(tarball "$p")" package/package.json)"; then abort "@kg/$p still depends on workspace:*"; fi
done

# ---------------------------------------------------------------------------------------------------------------
step "consumer project"
# Its own package.json (deps on the tarballs, effect and tsx pinned as in the repository) and its own
# pnpm-workspace.yaml, so pnpm never takes it for part of another workspace. The tarballs depend on each other by
# version (@kg/core 0.1.0, ...), which no registry has: overrides point those at the tarballs too.
REPO="$repo" WORK="$work" node -e '
  const fs = require("node:fs"), path = require("node:path")
  const repo = process.env.REPO, work = process.env.WORK
  const root = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"))
  const cli = JSON.parse(fs.readFileSync(path.join(repo, "packages/cli/package.json"), "utf8"))
  const tgz = (p) => "file:" + path.join(work, "tarballs", fs.readdirSync(path.join(work, "tarballs")).find((f) => f.startsWith(`kg-${p}-`)))
  const kg = Object.fromEntries(["core", "extraction", "graph", "cluster", "server", "web", "cli"].map((p) => [`@kg/${p}`, tgz(p)]))
  const pkg = {
    name: "kg-consumer-check",
    private: true,
    type: "module",
    dependencies: {
      ...kg,
      effect: root.devDependencies.effect,
      tsx: root.devDependencies.tsx,
      // The @kg/cli README example embeds the command with the Node platform.
      "@effect/platform-node": cli.dependencies["@effect/platform-node"]
    },
    devDependencies: { typescript: root.devDependencies.typescript, "@types/node": root.devDependencies["@types/node"] },
    pnpm: { overrides: kg, onlyBuiltDependencies: root.pnpm.onlyBuiltDependencies }
  }
  fs.writeFileSync(path.join(work, "app", "package.json"), JSON.stringify(pkg, null, 2) + "\n")
' || abort "writing the consumer package.json"
printf 'packages: []\n' >"$app/pnpm-workspace.yaml"
# A user's strict NodeNext project. The packages ship compiled JavaScript with declarations: the examples and a
# consumer file type-check against those declarations, with the strictest settings a user may have
# (exactOptionalPropertyTypes, noUncheckedIndexedAccess) and the packages' own .d.ts checked too
# (skipLibCheck is off for @kg/*: see consumer-strict.json below).
cat >"$app/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2022"],
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "exactOptionalPropertyTypes": true,
    "noUncheckedIndexedAccess": true,
    "skipLibCheck": true,
    "noEmit": true,
    "types": ["node"]
  },
  "include": ["*.ts"]
}
JSON
# The declarations of @kg/* themselves, checked strictly (skipLibCheck off, effect's own declarations included).
cat >"$app/consumer-strict.json" <<'JSON'
{
  "extends": "./tsconfig.json",
  "compilerOptions": { "skipLibCheck": false },
  "include": ["consumer.ts"]
}
JSON
cat >"$app/consumer.ts" <<'TS'
// A program that imports every package through its public entry points.
import * as Effect from "effect/Effect"
import { Domain, EntityCache, KnowledgeIndex } from "@kg/core"
import * as Ontologies from "@kg/extraction/Ontologies"
import * as Kg from "@kg/graph/Kg"
import { Store } from "@kg/graph/Store"
import { Cli } from "@kg/cli"

const paperId: Domain.PaperId = Domain.PaperId.make("consumer-paper")
const cache: EntityCache.EntityCache = EntityCache.empty
const index = KnowledgeIndex.empty
const program = Effect.gen(function*() {
  const store = yield* Store
  const stats = yield* store.stats()
  return { paperId, cache: EntityCache.entities(cache).length, index, claims: stats.tables["claims"] ?? 0 }
}).pipe(Effect.provide(Kg.layerOffline({ db: ":memory:", embeddings: "hash" })))
export const run = (): Promise<unknown> => Effect.runPromise(program)
export const ontology: string = Ontologies.researchOntologyPath
export const command = Cli.kg
TS
cat "$app/package.json"

# The examples are copied unchanged: they may import only public modules of the packages (no relative or
# internal imports), exactly as a user's program would. So is the example of each package's README.
mkdir -p "$app/examples"
cp "$repo"/examples/library/*.ts "$app/"
cp -R "$repo/examples/corpus" "$app/examples/corpus" || abort "copying examples/corpus"
for f in "$repo"/examples/library/*.ts; do
  bad="$(grep -nE "from \"(\.|[^\"]*/internal/)" "$f" || true)"
  [ -z "$bad" ] || fail "$(basename "$f") imports something a user cannot: $bad"
done
for p in "${packages[@]}"; do
  REPO="$repo" APP="$app" node -e '
    const fs = require("node:fs"), path = require("node:path")
    const p = process.argv[1]
    const readme = fs.readFileSync(path.join(process.env.REPO, "packages", p, "README.md"), "utf8")
    const section = readme.split(/^## Example\s*$/m)[1] ?? ""
    const block = /```ts\n([\s\S]*?)```/.exec(section)
    if (block === null) { console.error(`packages/${p}/README.md has no ts block under "## Example"`); process.exit(1) }
    fs.writeFileSync(path.join(process.env.APP, `readme-${p}.ts`), block[1])
  ' "$p" || fail "README example of @kg/$p"
done

# ---------------------------------------------------------------------------------------------------------------
step "pnpm install"
(cd "$app" && pnpm install --config.node-linker=isolated --no-frozen-lockfile --reporter=append-only 2>&1 | tail -n 15)
[ "${PIPESTATUS[0]}" -eq 0 ] && [ -x "$app/node_modules/.bin/kg" ] || abort "pnpm install in the consumer project"

# ---------------------------------------------------------------------------------------------------------------
# Offline, hashed embeddings (no 300 MB word-vector conversion), no keys, no colours; 5 minutes at most each.
limit=()
command -v timeout >/dev/null 2>&1 && limit=(timeout 300)
run() {
  (cd "$app" && env -u ANTHROPIC_API_KEY -u ANTHROPIC_BASE_URL -u OPENAI_API_KEY -u OPENAI_BASE_URL -u KG_DEBUG \
    KG_EMBEDDINGS=hash NO_COLOR=1 KG_CACHE_DIR="$work/cache" "${limit[@]}" "$@")
}
# try NAME CMD...: run CMD in the consumer project; stdout then stderr go to $work/NAME.log, the exit status to $rc.
rc=0
try() {
  local name="$1"
  shift
  run "$@" >"$work/$name.log" 2>"$work/$name.err"
  rc=$?
  cat "$work/$name.err" >>"$work/$name.log"
}
# expect NAME CHECK...: each CHECK is a node expression over `out` (the text of $work/NAME.log) and `rc`.
expect() {
  local name="$1"
  shift
  node -e '
    const out = require("node:fs").readFileSync(process.argv[1], "utf8")
    const rc = Number(process.argv[2])
    const lastJson = () => JSON.parse(out.trim().split("\n").filter((l) => l.startsWith("{")).pop())
    for (const check of process.argv.slice(3)) {
      let ok = false
      try { ok = eval(check) } catch (e) { ok = false }
      if (!ok) { console.error("  failed: " + check); process.exitCode = 1 }
    }
  ' "$work/$name.log" "$rc" "$@" || { fail "$name"; sed 's/^/  | /' "$work/$name.log" | tail -n 40; return 1; }
  echo "ok: $name"
}

step "tsc: the examples type-check against the installed packages"
try tsc ./node_modules/.bin/tsc -p .
expect tsc 'rc === 0'

step "tsc: a consumer file against the packages' declarations, skipLibCheck off"
try tsc-strict ./node_modules/.bin/tsc -p consumer-strict.json
expect tsc-strict 'rc === 0'

step "plain node (no tsx, no TypeScript) imports every package and runs an extraction"
cat >"$app/plain.mjs" <<'JS'
import * as Effect from "effect/Effect"
import * as Core from "@kg/core"
import * as Extraction from "@kg/extraction"
import * as Graph from "@kg/graph"
import * as CliPkg from "@kg/cli"
import * as ClusterPkg from "@kg/cluster"
import * as Kg from "@kg/graph/Kg"
import * as Extract from "@kg/graph/Extract"

const modules = [Core, Extraction, Graph, ClusterPkg, CliPkg].map((m) => Object.keys(m).length)
const summary = await Effect.runPromise(
  Extract.runExtraction(["examples/corpus/2212.11791.md"], {}, () => Effect.void).pipe(
    Effect.provide(Kg.layerOffline({ db: ":memory:", embeddings: "hash" }))
  )
)
console.log(JSON.stringify({ modules, papers: summary.papers, claims: summary.claims }))
JS
try plain node plain.mjs
expect plain 'rc === 0' 'lastJson().modules.every((n) => n > 0)' 'lastJson().papers === 1' 'lastJson().claims >= 1'

step "the ontologies resolve inside the installed package"
printf '%s\n' \
  'import { existsSync } from "node:fs"' \
  'import * as Ontologies from "@kg/extraction/Ontologies"' \
  'const { researchOntologyPath: ontology, researchShapesPath: shapes } = Ontologies' \
  'console.log(JSON.stringify({ ontology, shapes, exist: existsSync(ontology) && existsSync(shapes) }))' \
  >"$app/paths.mts"
try paths npx tsx paths.mts
expect paths 'rc === 0' 'lastJson().exist === true' \
  'lastJson().shapes.includes("/node_modules/") && lastJson().shapes.endsWith("/ontologies/research.shapes.ttl")'

step "library examples"
try extract-folder npx tsx extract-folder.ts examples/corpus kg-example.duckdb
expect extract-folder 'rc === 0' 'lastJson().papersWritten >= 1' 'lastJson().claims >= 1'
try walk-contradictions npx tsx walk-contradictions.ts
expect walk-contradictions 'rc === 0' 'out.includes("[contested]")' 'out.includes("contradicted by")'
try run-l4 npx tsx run-l4.ts
# the example corpus's four papers share no specific entity: no pattern (the L4 topic gate), and says why
expect run-l4 'rc === 0' '/^0 patterns from [1-9]\d* claims/m.test(out)' \
  'out.includes("share a specific entity")' 'out.includes("second run: 0 created, 0 updated")'
# Examples added later run too, with their defaults, and must succeed.
for f in "$repo"/examples/library/*.ts; do
  name="$(basename "$f" .ts)"
  case "$name" in extract-folder | walk-contradictions | run-l4) continue ;; esac
  try "$name" npx tsx "$name.ts"
  expect "$name" 'rc === 0'
done

step "package README examples"
try readme-core npx tsx readme-core.ts
expect readme-core 'rc === 0' 'out.includes("NeuralNetwork < Method")' 'out.includes("chunk-")'
try readme-extraction npx tsx readme-extraction.ts examples/corpus/2212.11791.md
expect readme-extraction 'rc === 0' '/: \d+ chunks, [1-9]\d* claims/.test(out)'
try readme-graph npx tsx readme-graph.ts examples/corpus "$work/readme-graph.duckdb"
expect readme-graph 'rc === 0' '/[1-9]\d* papers, [1-9]\d* claims/.test(out)' 'out.includes("References:")'
try readme-cluster npx tsx readme-cluster.ts examples/corpus/2212.11791.md
expect readme-cluster 'rc === 0' '/^runner: .*, [1-9]\d* chunks answered/m.test(out)' '/^writer: 1 paper stored, [1-9]\d* claims$/m.test(out)'
try readme-cli npx tsx readme-cli.ts stats --db "$work/readme-graph.duckdb" --json
expect readme-cli 'rc === 0' 'lastJson() !== undefined'
try readme-server npx tsx readme-server.ts "$work/readme-graph.duckdb"
expect readme-server 'rc === 0' '/^serving .* at http:\/\/127\.0\.0\.1:\d+\/: [1-9]\d* papers, [1-9]\d* claims$/m.test(out)'
try readme-web npx tsx readme-web.ts
expect readme-web 'rc === 0' 'out.includes("(built)")'

step "the installed kg command"
version="$(node -p 'require(process.argv[1]).version' "$repo/packages/cli/package.json")"
try kg-version ./node_modules/.bin/kg --version
expect kg-version 'rc === 0' "out.includes('$version')"
try kg-extract ./node_modules/.bin/kg extract examples/corpus/2212.11791.md --db "$work/cli.duckdb" --json
expect kg-extract 'rc === 0' 'lastJson().papers === 1' 'lastJson().claims >= 1'

finish
