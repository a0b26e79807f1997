/**
 * The commands of `kg`, each with the one line that `kg --help` prints and the
 * examples its own `--help` shows. One list, read by the top-level help (which
 * loads nothing else) and by each command's definition.
 */

export interface Entry {
  readonly name: string
  readonly summary: string
  readonly examples: ReadonlyArray<string>
  readonly group: "build" | "ask" | "graph" | "maintain" | "measure"
}

export const groups: ReadonlyArray<readonly [Entry["group"], string]> = [
  ["build", "Build the graph"],
  ["ask", "Ask questions"],
  ["graph", "Explore claims and entities"],
  ["maintain", "Maintain the store"],
  ["measure", "Measure quality"]
]

export const entries: ReadonlyArray<Entry> = [
  {
    name: "extract",
    group: "build",
    summary: "extract claims, entities and relations from papers (.md, .txt, .pdf) into the graph",
    examples: [
      "kg extract examples/corpus",
      "kg extract papers/ --db papers.duckdb --provider anthropic --concurrency 4",
      "kg extract paper.pdf --json > summary.json",
      "kg extract papers/ --provider anthropic --cluster postgres://kg@db.lab:5432/kg"
    ]
  },
  {
    name: "worker",
    group: "build",
    summary: "a runner of the extraction cluster (PostgreSQL): extracts the papers `kg extract --cluster` submits",
    examples: [
      "kg worker --cluster postgres://kg@db.lab:5432/kg --host 10.0.0.7",
      "kg worker --cluster postgres://kg@localhost/kg --port 0 --concurrency 16"
    ]
  },
  {
    name: "fetch",
    group: "build",
    summary: "fetch papers from arXiv (search or ids) into the graph; PDFs saved to a folder (local DOIs/URLs: out of scope)",
    examples: [
      `kg fetch arxiv "cat:cs.CL AND ti:verification" --max 20 --to papers/`,
      "kg fetch arxiv --id 2206.10883v3 --to papers/",
      `kg fetch arxiv "au:del_maestro" --metadata-only`
    ]
  },
  {
    name: "l4",
    group: "build",
    summary: "find cross-paper patterns (L4): cluster claims and state each cluster's principle",
    examples: ["kg l4", "kg l4 --min-papers 3 --show 5"]
  },
  {
    name: "link",
    group: "build",
    summary: "link claims across papers (typed edges, merges) and re-grade their status",
    examples: ["kg link", "kg link --provider anthropic --concurrency 4"]
  },
  {
    name: "research",
    group: "ask",
    summary: "answer a research question with [paper, page N] citations, references and claim statuses",
    examples: [`kg research "Does data augmentation improve robustness?"`, `kg research "What limits BM25?" --save answer.md`]
  },
  {
    name: "ask",
    group: "ask",
    summary: "answer a question directly from the graph (same citation rules as research)",
    examples: [`kg ask "Which metric does LongEval report?"`, `kg ask "What dataset was used?" --json`]
  },
  {
    name: "serve",
    group: "ask",
    summary: "the research workbench: an HTTP API and a web page where answers show their evidence",
    examples: [
      "kg serve",
      "kg serve --db papers.duckdb --port 8080",
      "kg serve --host 0.0.0.0 --token \"$KG_TOKEN\"",
      "kg serve --read-only --db /srv/kg/published --port 8080"
    ]
  },
  {
    name: "chat",
    group: "ask",
    summary: "a research conversation: find, research, ask, improve, summary <n>, claims <n>, open <n>, save",
    examples: ["kg chat", "kg chat --db papers.duckdb --provider anthropic", "kg chat < session.txt > transcript.txt"]
  },
  {
    name: "claims",
    group: "graph",
    summary: "list claims, by epistemic status and/or relevance to a topic",
    examples: ["kg claims --status contested", `kg claims --about "temporal drift" --limit 10`]
  },
  {
    name: "claim",
    group: "graph",
    summary: "one claim: its sources (quotes, pages), edges and status; free text that is not stored is judged against the evidence",
    examples: [`kg claim "attention improves translation"`, "kg claim d6d71893aa120063", "kg claim d6d71893aa120063 1328ffd4deeb7457 --json"]
  },
  {
    name: "challenges",
    group: "graph",
    summary: "papers whose claims or sentences contradict a claim or a hypothesis (id or free text)",
    examples: [`kg challenges "larger models generalise better"`]
  },
  {
    name: "counterevidence",
    group: "graph",
    summary: "the strongest evidence against a claim or a hypothesis, ranked by its own support",
    examples: [`kg counterevidence "dropout prevents overfitting" --json`]
  },
  {
    name: "applied",
    group: "graph",
    summary: "has anyone applied a method to a problem? (with sources)",
    examples: [`kg applied --method BERT --problem "question answering"`]
  },
  {
    name: "lineage",
    group: "graph",
    summary: "where an idea first appears, and how later work used or built on it",
    examples: ["kg lineage transformer", `kg lineage "residual connections"`]
  },
  {
    name: "foundations",
    group: "graph",
    summary: "the work a claim or method depends on (based-on / uses ancestors)",
    examples: ["kg foundations BERT --depth 2"]
  },
  {
    name: "papers",
    group: "maintain",
    summary: "the stored papers (id, year, first author, pages, claims, title); `papers set` corrects one",
    examples: ["kg papers", "kg papers --json", "kg papers set 2212.11791 --year 2020 --title \"The right title\""]
  },
  {
    name: "entities",
    group: "graph",
    summary: "the stored entities a name finds, with aliases, family (broader entities) and variants (narrower ones)",
    examples: ["kg entities \"Pascal VOC\"", "kg entities ResNet-50 --json"]
  },
  {
    name: "stats",
    group: "maintain",
    summary: "rows per table, claims per epistemic status, and each run's LLM tokens and estimated cost",
    examples: ["kg stats", "kg stats --db papers.duckdb --json"]
  },
  {
    name: "sentences",
    group: "maintain",
    summary: "store each chunk's sentences and finding cues where missing (stores before schema 14), so answers need not parse them",
    examples: ["kg sentences --db papers.duckdb", "kg sentences --db big.duckdb --batch 5000 --limit 100000 --json"]
  },
  {
    name: "publish",
    group: "maintain",
    summary: "a consistent snapshot of the store for read replicas (kg serve --read-only --db <folder> follows it)",
    examples: ["kg publish --to /srv/kg/published", "kg publish --db papers.duckdb --to published/ --keep 2 --json"]
  },
  {
    name: "remove",
    group: "maintain",
    summary: "delete papers and what only they supported (claims with other sources keep them)",
    examples: ["kg remove 2212.11791", "kg remove paper-a paper-b --json", "kg remove --db old.duckdb -- -draft-1"]
  },
  {
    name: "retract",
    group: "maintain",
    summary: "mark a paper retracted and re-grade the claims that depended on it",
    examples: ["kg retract 2212.11791", "kg retract 2212.11791 --undo"]
  },
  {
    name: "curate",
    group: "maintain",
    summary: "confirm, reject or correct claims, edges and entities; kept across re-extraction, listed, undoable",
    examples: [
      "kg curate list",
      "kg curate reject <claim-id> <claim-id>          # a wrong edge",
      "kg curate reject <claim-id> --role background   # not a finding",
      "kg curate kind <claim-id> <claim-id> weak_link",
      "kg curate undo 3"
    ]
  },
  {
    name: "export",
    group: "maintain",
    summary: "export the graph (Turtle, N-Triples, JSON-LD, CSV, Parquet) or training data",
    examples: ["kg export --format turtle --out kg.ttl", "kg export --format parquet --out tables/"]
  },
  {
    name: "config",
    group: "maintain",
    summary: "the effective settings (flags > environment > kg.config.json > defaults), secrets masked",
    examples: ["kg config", "kg config --config other.config.json --json"]
  },
  {
    name: "train",
    group: "measure",
    summary:
      "retrain a learned judge from the shipped data plus your own: nli (with a store's curations) or claims (the rhetorical-role classifier); kept only when held-out is not worse",
    examples: [
      "kg train nli --db papers.duckdb",
      "kg train nli --db papers.duckdb --dry-run --json",
      "kg train claims",
      "kg train claims --extra not-findings.jsonl",
      "kg train claims --extra more.jsonl --out weights.json --json"
    ]
  },
  {
    name: "eval",
    group: "measure",
    summary: "measure extraction, entity resolution, NLI, retrieval and QA quality on labelled data",
    examples: [
      "kg eval nli --pairs pairs.jsonl",
      "kg eval entities --gold clusters.json",
      "kg eval retrieval --questions q.jsonl --corpus c.jsonl --mode all"
    ]
  }
]

export const entry = (name: string): Entry => {
  const found = entries.find((e) => e.name === name)
  if (found === undefined) throw new Error(`no catalog entry for ${name}`)
  return found
}

/** A command's description for its own `--help`: the summary, then its examples. */
export const describe = (name: string, more: ReadonlyArray<string> = []): string => {
  const e = entry(name)
  return [e.summary, ...more, "", "Examples:", ...e.examples.map((x) => `  ${x}`)].join("\n")
}

/** The top-level help: usage, the commands one line each by group, and where to read more. */
export const topLevelHelp = (version: string): string => {
  const width = Math.max(...entries.map((e) => e.name.length))
  const lines = [
    `kg ${version}: turn research papers into a claim-level knowledge graph and answer questions from it`,
    "",
    "Usage: kg <command> [options]",
    "       kg <command> --help     options and examples of one command",
    "       kg --version",
    ""
  ]
  for (const [group, title] of groups) {
    lines.push(`${title}:`)
    for (const e of entries.filter((x) => x.group === group)) lines.push(`  ${e.name.padEnd(width)}  ${e.summary}`)
    lines.push("")
  }
  lines.push(
    "Every command takes --db FILE (default kg.duckdb) and --json (one JSON document on stdout).",
    "Options go anywhere; a value that starts with - goes after -- (kg remove -- -draft-1) or as --option=-value.",
    "Settings: flags > environment > kg.config.json (or --config FILE) > defaults; see `kg config`.",
    "Offline by default; ANTHROPIC_API_KEY, OPENAI_API_KEY or OPENAI_BASE_URL select an LLM provider.",
    "",
    "Start with:  kg extract <folder of papers>   then   kg research \"<your question>\""
  )
  return lines.join("\n")
}
