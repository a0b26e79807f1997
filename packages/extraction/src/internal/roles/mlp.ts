/**
 * A small multilayer perceptron (one hidden layer, tanh, softmax output) over
 * dense inputs, trained by minibatch Adam on the example-weighted,
 * L2-regularised log loss. Deterministic: the initial weights and the order
 * of the minibatches come from a seeded generator (mulberry32). Used by the
 * role classifier's training (`roles/train.ts`) when a stage reads dense
 * vectors a linear model cannot combine.
 *
 * @internal
 */
import { mulberry32 } from "@kg/core/Random"

/** One dense example. */
export interface DenseExample {
  readonly x: ReadonlyArray<number>
  readonly label: number
  readonly weight: number
}

/** A fitted network as stored: hidden[j] = tanh(b1[j] + sum_i w1[j][i] x[i]); z[c] = b2[c] + sum_j w2[c][j] hidden[j]. */
export interface Mlp {
  readonly w1: ReadonlyArray<ReadonlyArray<number>>
  readonly b1: ReadonlyArray<number>
  readonly w2: ReadonlyArray<ReadonlyArray<number>>
  readonly b2: ReadonlyArray<number>
}

/** Options of {@link fitMlp}. */
export interface MlpOptions {
  readonly hidden: number
  readonly epochs: number
  readonly l2: number
  readonly seed: number
  readonly learningRate?: number | undefined
  readonly batch?: number | undefined
}

/** Class probabilities of one input. */
export const mlpProbabilities = (m: Mlp, x: ReadonlyArray<number>): Array<number> => {
  const h = m.b1.map((b, j) => {
    const w = m.w1[j]!
    let s = b
    for (let i = 0; i < x.length; i++) s += w[i]! * x[i]!
    return Math.tanh(s)
  })
  const z = m.b2.map((b, c) => {
    const w = m.w2[c]!
    let s = b
    for (let j = 0; j < h.length; j++) s += w[j]! * h[j]!
    return s
  })
  const max = Math.max(...z)
  const e = z.map((v) => Math.exp(v - max))
  const sum = e.reduce((a, b) => a + b, 0)
  return e.map((v) => v / sum)
}

/** Fits the network (see the module's comment). */
export const fitMlp = (examples: ReadonlyArray<DenseExample>, inputs: number, classes: number, options: MlpOptions): Mlp => {
  const H = options.hidden
  const rand = mulberry32(options.seed)
  const gauss = () => {
    const u = Math.max(1e-12, rand())
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand())
  }
  // parameters in one array: w1 (H x inputs), b1 (H), w2 (classes x H), b2 (classes)
  const o1 = 0, ob1 = H * inputs, o2 = ob1 + H, ob2 = o2 + classes * H, n = ob2 + classes
  const theta = new Float64Array(n)
  const s1 = Math.sqrt(1 / Math.max(1, inputs)), s2 = Math.sqrt(1 / H)
  for (let i = 0; i < H * inputs; i++) theta[o1 + i] = gauss() * s1
  for (let i = 0; i < classes * H; i++) theta[o2 + i] = gauss() * s2
  const m = new Float64Array(n), v = new Float64Array(n), g = new Float64Array(n)
  const lr = options.learningRate ?? 0.003
  const batch = options.batch ?? 64
  const b1 = 0.9, b2 = 0.999
  let step = 0
  const order = examples.map((_, i) => i)
  const h = new Float64Array(H), z = new Float64Array(classes), dh = new Float64Array(H)
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1))
      const t = order[i]!
      order[i] = order[j]!
      order[j] = t
    }
    for (let start = 0; start < order.length; start += batch) {
      g.fill(0)
      let total = 0
      for (let bi = start; bi < Math.min(order.length, start + batch); bi++) {
        const ex = examples[order[bi]!]!
        const x = ex.x
        for (let j = 0; j < H; j++) {
          let s = theta[ob1 + j]!
          const off = o1 + j * inputs
          for (let i = 0; i < inputs; i++) s += theta[off + i]! * x[i]!
          h[j] = Math.tanh(s)
        }
        let max = -Infinity
        for (let c = 0; c < classes; c++) {
          let s = theta[ob2 + c]!
          const off = o2 + c * H
          for (let j = 0; j < H; j++) s += theta[off + j]! * h[j]!
          z[c] = s
          if (s > max) max = s
        }
        let sum = 0
        for (let c = 0; c < classes; c++) {
          z[c] = Math.exp(z[c]! - max)
          sum += z[c]!
        }
        dh.fill(0)
        for (let c = 0; c < classes; c++) {
          const d = ex.weight * (z[c]! / sum - (c === ex.label ? 1 : 0))
          g[ob2 + c]! += d
          const off = o2 + c * H
          for (let j = 0; j < H; j++) {
            g[off + j]! += d * h[j]!
            dh[j]! += d * theta[off + j]!
          }
        }
        for (let j = 0; j < H; j++) {
          const d = dh[j]! * (1 - h[j]! * h[j]!)
          g[ob1 + j]! += d
          const off = o1 + j * inputs
          for (let i = 0; i < inputs; i++) g[off + i]! += d * x[i]!
        }
        total += ex.weight
      }
      step++
      const c1 = 1 - b1 ** step, c2 = 1 - b2 ** step
      for (let i = 0; i < n; i++) {
        const isBias = (i >= ob1 && i < o2) || i >= ob2
        const gi = g[i]! / Math.max(1e-9, total) + (isBias ? 0 : options.l2 * theta[i]!)
        m[i] = b1 * m[i]! + (1 - b1) * gi
        v[i] = b2 * v[i]! + (1 - b2) * gi * gi
        theta[i]! -= (lr * (m[i]! / c1)) / (Math.sqrt(v[i]! / c2) + 1e-8)
      }
    }
  }
  const round = (x: number) => Math.round(x * 1e5) / 1e5
  return {
    w1: Array.from({ length: H }, (_, j) => Array.from(theta.subarray(o1 + j * inputs, o1 + (j + 1) * inputs), round)),
    b1: Array.from(theta.subarray(ob1, ob1 + H), round),
    w2: Array.from({ length: classes }, (_, c) => Array.from(theta.subarray(o2 + c * H, o2 + (c + 1) * H), round)),
    b2: Array.from(theta.subarray(ob2, ob2 + classes), round)
  }
}
