/**
 * Where the suite's run folder goes (test/support/temp-root.ts): in memory when the machine has
 * a tmpfs with room, else the system temp folder; a TMPDIR someone set is kept.
 */
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { runFolderParent } from "./support/temp-root.ts";

const gib = 1024 ** 3;
const tmpfs = 0x01021994;
const ext4 = 0xef53;
const statfsOf =
  (type: number, bytes: number) => (): { type: number; bsize: number; bavail: number } => ({
    type,
    bsize: 4096,
    bavail: bytes / 4096,
  });

describe("the run folder's parent", () => {
  it.each([
    ["a tmpfs with room", statfsOf(tmpfs, 8 * gib), "/dev/shm"],
    [
      "a tmpfs of 64 MB (a container's default /dev/shm)",
      statfsOf(tmpfs, 64 * 1024 ** 2),
      tmpdir(),
    ],
    ["a disk's file system", statfsOf(ext4, 100 * gib), tmpdir()],
    [
      "no such folder",
      () => {
        throw Object.assign(new Error("ENOENT"), { code: "ENOENT" });
      },
      tmpdir(),
    ],
  ])("with no TMPDIR set, on %s: %s", (_, statfs, want) => {
    expect(runFolderParent({}, "/dev/shm", statfs)).toBe(want);
  });

  it("keeps a TMPDIR set by whoever started the run, whatever /dev/shm is", () => {
    expect(runFolderParent({ TMPDIR: "/scratch/ci" }, "/dev/shm", statfsOf(tmpfs, 8 * gib))).toBe(
      "/scratch/ci",
    );
  });
});
