/**
 * Every occurrence in a text of any of many strings, in one pass: a trie of the strings by UTF-16
 * code unit, walked from each position of the text. The Gate's prefilter looks for thousands of
 * required strings this way, and concept detection for every name and alias of the concepts;
 * checking each string with indexOf, or each string that starts with a text's pair of units,
 * meant hundreds of calls per question for the common English pairs ("th", "wh").
 *
 * Built with maps, then laid out in typed arrays at the first search (a map per node, scattered
 * over the heap, cost more in cache misses than the walk itself): the root's children in a table
 * by code unit, every other node's children as a sorted run of (unit, node) pairs.
 */
export class StringTrie {
  private readonly children: Map<number, number>[] = [new Map()];
  private readonly ends: number[][] = [[]];
  private flat: { root: Int32Array; edgeStart: Uint32Array; edgeUnit: Uint16Array; edgeNode: Uint32Array; endStart: Uint32Array; endId: Uint32Array } | undefined;

  /** Adds a string with an id; a string may carry several ids, and an id several strings. */
  add(text: string, id: number): void {
    if (!text) throw new Error('StringTrie: the empty string occurs everywhere');
    this.flat = undefined;
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      let next = this.children[node]!.get(unit);
      if (next === undefined) {
        next = this.children.length;
        this.children.push(new Map());
        this.ends.push([]);
        this.children[node]!.set(unit, next);
      }
      node = next;
    }
    if (!this.ends[node]!.includes(id)) this.ends[node]!.push(id);
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
    const n = this.children.length;
    const root = new Int32Array(65536).fill(-1);
    for (const [unit, node] of this.children[0]!) root[unit] = node;
    const edgeStart = new Uint32Array(n + 1);
    const endStart = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) {
      edgeStart[i + 1] = edgeStart[i]! + (i === 0 ? 0 : this.children[i]!.size);
      endStart[i + 1] = endStart[i]! + this.ends[i]!.length;
    }
    const edgeUnit = new Uint16Array(edgeStart[n]!);
    const edgeNode = new Uint32Array(edgeStart[n]!);
    const endId = new Uint32Array(endStart[n]!);
    for (let i = 1; i < n; i++) {
      [...this.children[i]!]
        .sort((a, b) => a[0] - b[0])
        .forEach(([unit, node], j) => {
          edgeUnit[edgeStart[i]! + j] = unit;
          edgeNode[edgeStart[i]! + j] = node;
        });
    }
    for (let i = 0; i < n; i++) endId.set(this.ends[i]!, endStart[i]!);
    return (this.flat = { root, edgeStart, edgeUnit, edgeNode, endStart, endId });
  }
}
