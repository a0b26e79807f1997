/**
 * A cluster PostgreSQL that cannot be reached is one clear error, from `kg worker` and from `kg extract --cluster`:
 * the address without its credentials, the driver's reason and what to check, and a non-zero exit. Needs no
 * PostgreSQL (a closed loopback port).
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { removeDir, runKg, tempDir } from "../../cli/test/helpers.js"

const url = "postgres://kg:s3cret-pw@127.0.0.1:1/kg"

describe("a cluster PostgreSQL that cannot be reached", () => {
  it("kg worker and kg extract --cluster name the address, never the password, and exit non-zero", async () => {
    const dir = tempDir("kg-cluster-connect-")
    try {
      const worker = await runKg(["worker", "--cluster", url, "--port", "0"])
      expect(worker.code).not.toBe(0)
      expect(worker.stderr).toContain("cannot connect to the cluster's PostgreSQL at postgres://127.0.0.1:1/kg")
      expect(worker.stderr).toContain("ECONNREFUSED")
      const paper = path.join(dir, "paper.txt")
      fs.writeFileSync(paper, "A title\n\nWe show that the method improves accuracy by 3 points on the benchmark.\n")
      const extract = await runKg(["extract", paper, "--db", path.join(dir, "kg.duckdb"), "--cluster", url], {
        env: { ANTHROPIC_API_KEY: "sk-ant-loopback-0123456789abcdef", ANTHROPIC_BASE_URL: "http://127.0.0.1:1" }
      })
      expect(extract.code).not.toBe(0)
      expect(extract.stderr).toContain("cannot connect to the cluster's PostgreSQL at postgres://127.0.0.1:1/kg")
      for (const out of [worker.stdout, worker.stderr, extract.stdout, extract.stderr]) expect(out).not.toContain("s3cret-pw")
    } finally {
      removeDir(dir)
    }
  })
})
