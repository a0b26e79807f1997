/**
 * Multinomial logistic regression over sparse inputs, fitted by L-BFGS on
 * the L2-regularised, example-weighted log loss. Deterministic: full batch,
 * no random state. Used by the role classifier's training
 * (`roles/train.ts`).
 *
 * @internal
 */

export interface Example {
  readonly index: ReadonlyArray<number>
  readonly value: ReadonlyArray<number>
  readonly label: number
  readonly weight: number
}

export interface Fitted {
  /** L-BFGS iterations run. */
  readonly iterations: number
  readonly bias: Array<number>
  /** weights[feature][class] */
  readonly weights: Array<Array<number>>
}

/** Loss and gradient at `theta` (features x classes weights, then classes biases). */
const lossAndGradient = (
  examples: ReadonlyArray<Example>,
  features: number,
  classes: number,
  l2: number,
  theta: Float64Array,
  grad: Float64Array
): number => {
  grad.fill(0)
  const biasAt = features * classes
  let loss = 0
  let total = 0
  const z = new Float64Array(classes)
  for (const ex of examples) {
    for (let c = 0; c < classes; c++) z[c] = theta[biasAt + c]!
    for (let j = 0; j < ex.index.length; j++) {
      const base = ex.index[j]! * classes
      const v = ex.value[j]!
      for (let c = 0; c < classes; c++) z[c]! += theta[base + c]! * v
    }
    let max = -Infinity
    for (let c = 0; c < classes; c++) if (z[c]! > max) max = z[c]!
    let sum = 0
    for (let c = 0; c < classes; c++) {
      z[c] = Math.exp(z[c]! - max)
      sum += z[c]!
    }
    for (let c = 0; c < classes; c++) z[c]! /= sum
    loss -= ex.weight * Math.log(Math.max(1e-12, z[ex.label]!))
    total += ex.weight
    for (let c = 0; c < classes; c++) {
      const g = ex.weight * (z[c]! - (c === ex.label ? 1 : 0))
      grad[biasAt + c]! += g
      for (let j = 0; j < ex.index.length; j++) grad[ex.index[j]! * classes + c]! += g * ex.value[j]!
    }
  }
  let reg = 0
  for (let i = 0; i < biasAt; i++) {
    reg += theta[i]! * theta[i]!
  }
  for (let i = 0; i < grad.length; i++) grad[i]! /= total
  for (let i = 0; i < biasAt; i++) grad[i]! += l2 * theta[i]!
  return loss / total + 0.5 * l2 * reg
}

const dot = (a: Float64Array, b: Float64Array): number => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}

/** Fits the model by L-BFGS (memory 10) with a backtracking line search. */
export const fit = (
  examples: ReadonlyArray<Example>,
  features: number,
  classes: number,
  options: { readonly l2: number; readonly iterations?: number; readonly tolerance?: number }
): Fitted => {
  const n = features * classes + classes
  const maxIter = options.iterations ?? 300
  const tol = options.tolerance ?? 1e-6
  let theta = new Float64Array(n)
  let grad = new Float64Array(n)
  let f = lossAndGradient(examples, features, classes, options.l2, theta, grad)
  const memory: Array<{ s: Float64Array; y: Float64Array; rho: number }> = []
  let iterations = 0
  for (let iter = 0; iter < maxIter; iter++) {
    iterations = iter + 1
    // two-loop recursion: direction = -H grad
    const q = Float64Array.from(grad)
    const alphas: Array<number> = []
    for (let k = memory.length - 1; k >= 0; k--) {
      const m = memory[k]!
      const a = m.rho * dot(m.s, q)
      alphas[k] = a
      for (let i = 0; i < n; i++) q[i]! -= a * m.y[i]!
    }
    if (memory.length > 0) {
      const last = memory[memory.length - 1]!
      const gamma = dot(last.s, last.y) / dot(last.y, last.y)
      for (let i = 0; i < n; i++) q[i]! *= gamma
    } else {
      const norm = Math.sqrt(dot(grad, grad)) || 1
      for (let i = 0; i < n; i++) q[i]! /= norm
    }
    for (let k = 0; k < memory.length; k++) {
      const m = memory[k]!
      const b = m.rho * dot(m.y, q)
      for (let i = 0; i < n; i++) q[i]! += m.s[i]! * (alphas[k]! - b)
    }
    for (let i = 0; i < n; i++) q[i] = -q[i]!
    let slope = dot(grad, q)
    if (slope >= 0) {
      // not a descent direction: restart from the gradient
      memory.length = 0
      for (let i = 0; i < n; i++) q[i] = -grad[i]!
      slope = dot(grad, q)
    }
    let step = 1
    const next = new Float64Array(n)
    const nextGrad = new Float64Array(n)
    let fNext = Infinity
    for (let tries = 0; tries < 30; tries++) {
      for (let i = 0; i < n; i++) next[i] = theta[i]! + step * q[i]!
      fNext = lossAndGradient(examples, features, classes, options.l2, next, nextGrad)
      if (fNext <= f + 1e-4 * step * slope) break
      step *= 0.5
    }
    const s = new Float64Array(n)
    const y = new Float64Array(n)
    for (let i = 0; i < n; i++) {
      s[i] = next[i]! - theta[i]!
      y[i] = nextGrad[i]! - grad[i]!
    }
    const sy = dot(s, y)
    if (sy > 1e-12) {
      memory.push({ s, y, rho: 1 / sy })
      if (memory.length > 10) memory.shift()
    }
    const improvement = f - fNext
    theta = next
    grad = nextGrad
    f = fNext
    if (Math.abs(improvement) < tol * Math.max(1, Math.abs(f))) break
  }
  const weights: Array<Array<number>> = []
  for (let j = 0; j < features; j++) weights.push(Array.from(theta.subarray(j * classes, (j + 1) * classes)))
  return { iterations, bias: Array.from(theta.subarray(features * classes)), weights }
}

/** Class probabilities of one sparse input. */
export const predict = (model: Fitted, index: ReadonlyArray<number>, value: ReadonlyArray<number>): Array<number> => {
  const z = [...model.bias]
  for (let j = 0; j < index.length; j++) {
    const w = model.weights[index[j]!]
    if (w === undefined) continue
    for (let c = 0; c < z.length; c++) z[c]! += w[c]! * value[j]!
  }
  const max = Math.max(...z)
  const e = z.map((x) => Math.exp(x - max))
  const sum = e.reduce((a, b) => a + b, 0)
  return e.map((x) => x / sum)
}
