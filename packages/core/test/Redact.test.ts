import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as Redact from "../src/Redact.js"

const CANARY = "CANARY7f3a"

describe("Redact.redactUrl", () => {
  it("removes userinfo and credential-like query and fragment parameters, keeping where requests go", () => {
    expect(Redact.redactUrl(`http://user:${CANARY}@127.0.0.1:8080/v1`)).toBe("http://[redacted]@127.0.0.1:8080/v1")
    expect(Redact.redactUrl(`https://${CANARY}@host/`)).toBe("https://[redacted]@host/")
    expect(Redact.redactUrl(`https://host/openai?api-version=2024-02&api-key=${CANARY}`)).toBe(
      "https://host/openai?api-version=2024-02&api-key=[redacted]"
    )
    expect(
      Redact.redactUrl(`https://b.blob.core.windows.net/c?sv=2022&sig=${CANARY}&se=2030;X-Amz-Signature=${CANARY}`)
    ).toBe("https://b.blob.core.windows.net/c?sv=2022&sig=[redacted]&se=2030;X-Amz-Signature=[redacted]")
    expect(Redact.redactUrl(`https://h/cb#access_token=${CANARY}&state=1`)).toBe("https://h/cb#access_token=[redacted]&state=1")
    for (const name of ["key", "apiKey", "token", "client_secret", "password", "passwd", "auth", "Authorization", "api%2Dkey"]) {
      expect(Redact.redactUrl(`http://h/?${name}=${CANARY}`), name).not.toContain(CANARY)
    }
    // Nothing to remove: unchanged, byte for byte.
    for (const url of ["https://api.anthropic.com", "http://127.0.0.1:11434/v1", "https://export.arxiv.org/api/query?search_query=all:bert&start=0"]) {
      expect(Redact.redactUrl(url)).toBe(url)
    }
  })

  it("redacts URLs nested in a parameter value", () => {
    const nested = `http://h/login?next=https://u:${CANARY}@inner/?token=${CANARY}&x=1`
    expect(Redact.redactUrl(nested)).not.toContain(CANARY)
  })
})

describe("Redact.redactText", () => {
  it("redacts every URL of a message, and leaves the rest of the message as it was", () => {
    const message = `openai: network: cannot reach http://u:${CANARY}@127.0.0.1:1/v1?key=${CANARY} (ECONNREFUSED); ` +
      `check OPENAI_BASE_URL (requests go to https://x.test/v1?token=${CANARY}).`
    const out = Redact.redactText(message)
    expect(out).not.toContain(CANARY)
    expect(out).toBe(
      "openai: network: cannot reach http://[redacted]@127.0.0.1:1/v1?key=[redacted] (ECONNREFUSED); " +
        "check OPENAI_BASE_URL (requests go to https://x.test/v1?token=[redacted])."
    )
    expect(Redact.redactText("no URL here: key=value")).toBe("no URL here: key=value")
    // A path and query echoed by a server, without scheme and host.
    expect(Redact.redactText(`404 for POST /v1/chat?api-version=2&api-key=${CANARY}&x=1 (/v1?sig=${CANARY})`)).toBe(
      "404 for POST /v1/chat?api-version=2&api-key=[redacted]&x=1 (/v1?sig=[redacted])"
    )
    expect(Redact.hasUrlSecret(message)).toBe(true)
    expect(Redact.hasUrlSecret(out)).toBe(false)
  })

  it("property: a canary in the userinfo or a credential parameter of a URL never survives, whatever surrounds it", () => {
    const filler = fc.string({ unit: fc.constantFrom("a", " ", ":", "/", "?", "&", "=", "@", "\"", "(", ")", ".", "\n"), maxLength: 40 })
    const param = fc.constantFrom("key", "api_key", "token", "access_token", "sig", "signature", "secret", "password", "auth")
    const url = fc.tuple(fc.constantFrom("http", "https", "git+ssh"), fc.boolean(), param, fc.constantFrom("", "/v1", "/a/b"))
      .map(([scheme, userinfo, name, path]) =>
        userinfo ? `${scheme}://user:${CANARY}@host${path}` : `${scheme}://host${path}?x=1&${name}=${CANARY}`
      )
    fc.assert(
      fc.property(filler, url, filler, (before, u, after) => {
        const out = Redact.redactText(`${before} ${u} ${after}`)
        return !out.includes(CANARY) && Redact.redactText(out) === out
      }),
      { numRuns: 500 }
    )
  })

  it("runs in linear time on hostile text (1 MB of URL-like noise in well under a second)", () => {
    const hostile = [
      "a".repeat(1_000_000) + "://",
      "http://".repeat(150_000),
      "http://h/?" + "&".repeat(1_000_000),
      "http://" + "@".repeat(1_000_000),
      ("x://a?key=" + "b".repeat(20)).repeat(30_000),
      "http://a" + ").".repeat(500_000)
    ]
    for (const text of hostile) {
      const started = performance.now()
      Redact.redactText(text)
      // Linear: some 10 ms per MB; a quadratic scan of these strings would take minutes. Room for a loaded machine.
      expect(performance.now() - started, text.slice(0, 20)).toBeLessThan(3_000)
    }
  }, 60_000)
})
