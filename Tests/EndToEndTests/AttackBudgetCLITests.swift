import FZSystem
import TestSupport
import Testing

/// Issue 51's bombs (items 2, 3 and 8), rebuilt by Tools/hostile/hostile_attacks51.py:
/// GIF frames far wider than their screen cost no more than the pixels that show (a CPU-time
/// guard); restore-to-previous frames and a 16-bit JPEG XL keep what the memory budget
/// counts (memory guards: the run's peak RSS less that of a tiny decode of the same format,
/// the process's own start-up, against --max-memory). Skipped under the sanitizers, whose
/// shadow memory no budget counts.
@Suite("Attack budgets (issue 51)")
struct AttackBudgetCLITests {
    static let generator = FileSystem.join(CLI.root, "Tools/hostile/hostile_attacks51.py")

    /// Writes `expression` (Python, the generator's functions as `h`) to `name` in `dir`.
    static func make(_ name: String, _ expression: String, in dir: String) {
        let script = """
            import importlib.util as u, sys
            sys.path.insert(0, sys.argv[1].rsplit('/', 1)[0])
            s = u.spec_from_file_location('h', sys.argv[1]); h = u.module_from_spec(s); s.loader.exec_module(h)
            open(sys.argv[2], 'wb').write(\(expression))
            """
        let file = FileSystem.join(dir, ".make.py")
        CLI.write(file, Array(script.utf8))
        let status = CLI.shell(
            "\(CLI.python) \(CLI.quote(file)) \(CLI.quote(generator)) \(CLI.quote(FileSystem.join(dir, name)))")
        #expect(status == 0, "\(expression)")
    }

    /// Ten interlaced 65535x4096 frames on a 1x1 screen (268 M pixels of LZW each): `--frame
    /// 10` decoded every row of the nine before (6.8 s of CPU here, 23-47 s on the attacker's
    /// noisier data); only the rows on the screen are decoded now. On a 1x4096 screen every
    /// row shows, and the 65535-pixel rows cost 268 M pixels for 4096: refused before
    /// decoding, in one line (kept with --lenient, as far as it went).
    @Test(.enabled(if: !CLI.sanitized, "timing under ASan is not the code's")) func wideGIFFramesCostWhatShows() {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        Self.make("bomb.gif", "h.gif_time_bomb(10)", in: dir)
        Self.make("tall.gif", "h.gif_time_bomb(1, screen=(1, 4096))", in: dir)
        let tenth = CLI.measure(
            ["crop", "bomb.gif", "--frame", "10", "--at", "0,0", "--size", "8", "-o", "t.png"], in: dir)
        #expect(tenth.exitCode == 0, "\(tenth)")
        #expect(tenth.cpuSeconds < 1.0, "CPU-time guard: \(tenth)")
        let tall = CLI.measure(["crop", "tall.gif", "--at", "0,0", "--size", "8", "-o", "u.png"], in: dir)
        #expect(tall.exitCode == 1 && tall.cpuSeconds < 1.0, "CPU-time guard: \(tall)")
        #expect(
            tall.stderr.hasPrefix("forcezoom: error: tall.gif: ")
                && tall.stderr.contains("reaches far past the 1x4096 screen"), "\(tall.stderr)")
        #expect(tall.stderr.split(separator: "\n").count == 1, "\(tall.stderr)")
        let lenient = CLI.measure(
            ["crop", "tall.gif", "--lenient", "--at", "0,0", "--size", "8", "-o", "v.png"], in: dir)
        #expect(lenient.exitCode == 0 && lenient.stderr.contains("warning") && lenient.cpuSeconds < 1.0, "\(lenient)")
    }

    /// Clipping keeps every pixel that shows: an interlaced 8x12 frame on an 8x5 screen (its
    /// rows 0-4 are stored 1st, 3rd, 4th, 5th and 8th of 12) equals Pillow's frame (which
    /// widens the screen to the frame instead) cut to the screen.
    @Test func anInterlacedFrameTallerThanTheScreenKeepsItsRows() {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        let stored = "[(x + 3 * y) % 4 for y in [0, 8, 4, 2, 6, 10, 1, 3, 5, 7, 9, 11] for x in range(8)]"
        Self.make("tall.gif", "h.gif_indices((8, 5), (8, 12), \(stored), interlaced=True)", in: dir)
        let verdict = ColorCLITests.python(
            """
            from PIL import Image
            Image.open('tall.gif').convert('RGB').crop((0, 0, 8, 5)).save('pillow.png')
            print('ok')
            """, in: dir)
        #expect(verdict.hasSuffix("ok\n"), "\(verdict)")
        let r = CLI.run(["compare", "pillow.png", "tall.gif", "--metric", "ae"], in: dir)
        #expect(r.status == 0 && r.stdout.hasPrefix("0"), "\(r.stdout) \(r.stderr)")
        #expect(verdict.hasSuffix("ok\n"), "\(verdict)")
    }

    /// The peak RSS (KiB) of `arguments` less that of `baseline` (the same format, tiny).
    static func extraKiB(_ arguments: [String], baseline: [String], in dir: String) -> (MeasuredRun, Int) {
        let base = CLI.measure(baseline, in: dir)
        #expect(base.exitCode == 0, "\(base)")
        let r = CLI.measure(arguments, in: dir)
        return (r, r.maxRSSKiB - base.maxRSSKiB)
    }

    /// A 3000x3000 screen of four restore-to-previous frames: composing frame 4 held three
    /// copies of the screen (the canvas, the last frame's saved region and the next one's,
    /// copied while the last was still held) where the budget counts two; with
    /// --max-memory at the two it now stays within them.
    @Test(.enabled(if: !CLI.sanitized, "ASan's shadow memory")) func restoreToPreviousStaysInTheBudget() {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        Self.make("restore.gif", "h.gif_restore_previous(3000, 4)", in: dir)
        Self.make("small.gif", "h.gif_restore_previous(16, 4)", in: dir)
        let budget = (2 * 3000 * 3000 * 4 + 65536 + (1 << 20) - 1) >> 20  // MiB, rounded up: 69
        let tail = ["--frame", "4", "--at", "0,0", "--size", "16", "-o", "f.png", "--max-memory", "\(budget)"]
        let (r, extra) = Self.extraKiB(
            ["crop", "restore.gif"] + tail, baseline: ["crop", "small.gif"] + tail, in: dir)
        #expect(r.exitCode == 0, "\(r)")
        #expect(
            extra <= (budget + 4) << 10, "memory guard: \(extra >> 10) MiB over start-up, budget \(budget) MiB: \(r)")
        let refused = CLI.measure(["crop", "restore.gif"] + tail.dropLast() + ["\(budget - 1)"], in: dir)
        #expect(refused.exitCode == 1 && refused.stderr.contains("--max-memory"), "\(refused)")
    }

    static let cjxl = CLI.shell("command -v cjxl >/dev/null") == 0

    /// A 16-bit JPEG XL (cjxl from the generator's 16-bit PNG, lossy and lossless) cropped to a
    /// 16-bit PNG: the decode check counted libjxl's planes once and our rows, the 8-bit path's
    /// share (103 MiB for 3000x2000), where the 16-bit path peaked 130-184 MiB over start-up.
    /// Under each --max-memory the crop is refused in one line or stays within it.
    @Test(.enabled(if: cjxl && !CLI.sanitized, "needs cjxl (libjxl-tools); ASan's shadow memory"))
    func sixteenBitJXLStaysInTheBudget() {
        let dir = CLI.scratch()
        defer { _ = CLI.shell("rm -rf \(CLI.quote(dir))") }
        Self.make("p16.png", "h.png16(3000, 2000)", in: dir)
        Self.make("s16.png", "h.png16(64, 64)", in: dir)
        let made = CLI.shell(
            "cd \(CLI.quote(dir)) && cjxl p16.png lossy.jxl -d 1 && cjxl p16.png lossless.jxl -d 0 && cjxl s16.png small.jxl -d 0"
        )
        #expect(made == 0)
        var fitted = 0
        for file in ["lossy.jxl", "lossless.jxl"] {
            for budget in [115, 150, 200] {
                let tail = ["--at", "50%,50%", "--size", "64", "-o", "c.png", "--max-memory", "\(budget)"]
                let (r, extra) = Self.extraKiB(["crop", file] + tail, baseline: ["crop", "small.jxl"] + tail, in: dir)
                let label = "\(file) --max-memory \(budget): \(extra >> 10) MiB over start-up: \(r)"
                if r.exitCode == 0 {
                    fitted += 1
                    #expect(extra <= (budget + 4) << 10, "memory guard: \(label)")
                } else {
                    #expect(r.exitCode == 1 && r.stderr.contains("decoding would need about"), "\(label)")
                }
            }
        }
        #expect(fitted >= 2, "the largest budget decodes both")
    }
}
