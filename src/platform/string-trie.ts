/**
 * Every occurrence in a text of any of many strings, in one pass: a trie of the strings by UTF-16
 * code unit, walked from each position of the text. The Gate's prefilter looks for thousands of
 * required strings this way, and concept detection for every name and alias of the concepts;
 * checking each string with indexOf, or each string that starts with a text's pair of units,
 * meant hundreds of calls per question for the common English pairs ("th", "wh").
 *
 * Strings are added into one map of edges, (node, unit) -> node; the first search lays the trie
 * out in typed arrays and lets the map go: the root's children in a table by code unit, every
 * other node's children as a sorted run of (unit, node) pairs. A map per node, or the edge map
 * kept beside the arrays, cost tens of megabytes across the service's tries; a string added after
 * a search rebuilds the map from the arrays first.
 */
export class StringTrie {
  /** While strings are added: edges by node * 65536 + unit, and the ids each ending node carries. */
  private edges: Map<number, number> | undefined = new Map();
  private ends: Map<number, number[]> | undefined = new Map();
  private nodes = 1;
  private flat: { root: Int32Array; edgeStart: Uint32Array; edgeUnit: Uint16Array; edgeNode: Uint32Array; endStart: Uint32Array; endId: Uint32Array } | undefined;

  /** Adds a string with an id; a string may carry several ids, and an id several strings. */
  add(text: string, id: number): void {
    if (!text) throw new Error('StringTrie: the empty string occurs everywhere');
    if (!this.edges || !this.ends) this.unlay();
    const edges = this.edges!;
    const ends = this.ends!;
    this.flat = undefined;
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const key = node * 65536 + text.charCodeAt(i);
      let next = edges.get(key);
      if (next === undefined) {
        next = this.nodes++;
        edges.set(key, next);
      }
      node = next;
    }
    const ids = ends.get(node);
    if (!ids) ends.set(node, [id]);
    else if (!ids.includes(id)) ids.push(id);
  }

  /**
   * Calls `visit(id, start)` for every occurrence of every string, overlapping ones included: by
   * start position, and at one position shorter strings before longer ones.
   */
  forEachMatch(text: string, visit: (id: number, start: number) => void): void {
    const { root, edgeStart, edgeUnit, edgeNode, endStart, endId } = this.flat ?? this.layout();
    const length = text.length;
    for (let start = 0; start < length; start++) {
      let node = root[text.charCodeAt(start)]!;
      let i = start + 1;
      while (node >= 0) {
        for (let e = endStart[node]!; e < endStart[node + 1]!; e++) visit(endId[e]!, start);
        if (i >= length) break;
        const unit = text.charCodeAt(i++);
        const last = edgeStart[node + 1]!;
        let e = edgeStart[node]!;
        while (e < last && edgeUnit[e]! < unit) e++;
        node = e < last && edgeUnit[e] === unit ? edgeNode[e]! : -1;
      }
    }
  }

  private layout() {
    const n = this.nodes;
    const edges = [...this.edges!].map(([key, child]) => [Math.floor(key / 65536), key % 65536, child] as const);
    // By node, then by unit: each node's children form one sorted run.
    edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const root = new Int32Array(65536).fill(-1);
    const edgeStart = new Uint32Array(n + 1);
    const inner = edges.filter(([from]) => from !== 0);
    const edgeUnit = new Uint16Array(inner.length);
    const edgeNode = new Uint32Array(inner.length);
    for (const [from, unit, child] of edges) if (from === 0) root[unit] = child;
    inner.forEach(([from, unit, child], j) => {
      edgeStart[from + 1]!++;
      edgeUnit[j] = unit;
      edgeNode[j] = child;
    });
    for (let i = 0; i < n; i++) edgeStart[i + 1]! += edgeStart[i]!;
    const endStart = new Uint32Array(n + 1);
    for (const [node, ids] of this.ends!) endStart[node + 1] = ids.length;
    for (let i = 0; i < n; i++) endStart[i + 1]! += endStart[i]!;
    const endId = new Uint32Array(endStart[n]!);
    for (const [node, ids] of this.ends!) endId.set(ids, endStart[node]!);
    this.edges = undefined;
    this.ends = undefined;
    return (this.flat = { root, edgeStart, edgeUnit, edgeNode, endStart, endId });
  }

  /** The edge map again, from the arrays, to add to a trie already searched. */
  private unlay(): void {
    const { root, edgeStart, edgeUnit, edgeNode, endStart, endId } = this.flat!;
    const edges = new Map<number, number>();
    const ends = new Map<number, number[]>();
    for (let unit = 0; unit < 65536; unit++) if (root[unit]! >= 0) edges.set(unit, root[unit]!);
    for (let node = 1; node < this.nodes; node++) {
      for (let e = edgeStart[node]!; e < edgeStart[node + 1]!; e++) edges.set(node * 65536 + edgeUnit[e]!, edgeNode[e]!);
    }
    for (let node = 0; node < this.nodes; node++) {
      if (endStart[node + 1]! > endStart[node]!) ends.set(node, [...endId.subarray(endStart[node]!, endStart[node + 1]!)]);
    }
    this.edges = edges;
    this.ends = ends;
  }
}
