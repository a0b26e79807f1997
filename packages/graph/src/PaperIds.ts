/**
 * Paper ids are unique per file: the id a document proposes (its arXiv id or
 * DOI, else its file stem) is kept unless another file's paper already holds
 * it, in which case the file gets a stable suffix (a hash of its resolved
 * path). `Extract.extractStream` gives ids this way; a program that hands
 * documents over itself (`ExtractOptions.documents`, e.g. a cluster writer
 * that submits papers ahead of writing them) gives them the same way with
 * {@link assignPaperId}.
 *
 * @since 0.1.0
 */
export {
  /**
   * The paper as it is stored: its own id when free or held by the same file
   * (same resolved source path), else a suffixed id. `claimed` holds the ids
   * given to other files earlier in the run (id -> resolved source), for papers
   * not written yet; it is updated.
   *
   * @since 0.1.0
   */
  assignPaperId
} from "./internal/store/paperIds.js"
