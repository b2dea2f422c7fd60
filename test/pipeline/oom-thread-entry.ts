// A pipeline thread entry that keeps allocating until it exhausts its heap bound (thread.test.ts).
const hold: string[][] = [];
for (;;) hold.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${hold.length}-${Math.random()}`));
