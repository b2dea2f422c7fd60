/** True on Linux with glibc (where malloc_trim and mallopt exist): what native-heap.ts and bin/malloc-arenas.mjs need. */
export const glibc =
  process.platform === 'linux' &&
  Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);
