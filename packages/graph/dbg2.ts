import { valueIn } from "./src/internal/research/findings.js"
import { analyse } from "./src/internal/research/question.js"
const a = analyse("How much faster do spectral representations of filters make convergence?")
console.log(JSON.stringify({ head: a.head, quantity: a.quantity, wants: a.wantsValue, change: (a as any).change }))
for (const s of ["Empirically, in Section 5 we observe that spectral representations of filters leads to a convergence speedup by 2-5 times.",
  "Last, we also note that the 18-layer plain / residual nets are comparably accurate (Table 2), but the 18-layer ResNet converges faster (Fig. 4 right vs. left).",
  "We observe improvements of 3.4–5.7 Bleu from training with a mix of parallel and synthetic data, compared to the baseline that is only trained on parallel data."])
  console.log(JSON.stringify(valueIn(s, a)))
const b = analyse("How much BLEU does training on synthetic back-translated data add in the Edinburgh WMT16 systems?")
console.log(JSON.stringify(valueIn("All reported methods give substantial improvements, and we see improvements of 4.3–11.2 Bleu over our baseline systems.", b)), JSON.stringify(valueIn("We observe improvements of 3.4–5.7 Bleu from training with a mix of parallel and synthetic data, compared to the baseline that is only trained on parallel data.", b)))
