// Imported first by the kit's index (so by a bot's first import), before any library: the real
// stdout belongs to the handshake line (protocol sections 1 and 2), so everything that would
// print there goes to stderr instead. The handshake itself is written with
// fs.writeSync(1, ...) by server.ts.

import { formatWithOptions } from "node:util";

const toStderr = (...args: unknown[]): void => {
  process.stderr.write(formatWithOptions({ colors: false }, ...args) + "\n");
};

console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
console.trace = (...args: unknown[]): void => {
  toStderr(...args, new Error("trace").stack);
};
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
