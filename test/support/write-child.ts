/**
 * A child process for the killed-write test: writes version `v` of a synthetic output
 * (`count` files of about `size` bytes, some files only in some versions) into `outDir` with
 * the generator's own writer, printing `writing` just before the write starts, so the test
 * can kill it at a random moment inside the write.
 *
 *   node write-child.mjs <outDir> <version> <count> <size>
 */
import { planOutput, writeOutput } from "../../generator/write/writer.ts";
import { syntheticOutput } from "./synthetic-output.ts";

const [outDir, version, count, size] = process.argv.slice(2);
const files = syntheticOutput(version!, Number(count), Number(size));
const plan = planOutput(outDir!, files);
process.stdout.write("writing\n");
writeOutput(outDir!, files, plan);
process.stdout.write("done\n");
