// Compact seq lists for messages: [3,4,5,6,7,9] → "3–7, 9".
export function formatSeqRanges(seqs: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < seqs.length;) {
    let j = i;
    while (j + 1 < seqs.length && seqs[j + 1] === seqs[j] + 1) j++;
    parts.push(j === i ? `${seqs[i]}` : `${seqs[i]}–${seqs[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
