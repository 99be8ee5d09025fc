// WorkerPool against a width-limited TaskGroup (bench/notes.md). Build and run:
//   swiftc -O -parse-as-library bench/pool/main.swift Sources/FZSystem/Threads/WorkerPool.swift -o /tmp/poolbench && /tmp/poolbench
import Glibc

@inline(never) func spin(_ iterations: Int, _ seed: Int) -> Int {
    var x = UInt64(truncatingIfNeeded: seed) | 1
    for _ in 0..<iterations { x = x &* 6364136223846793005 &+ 1442695040888963407; x ^= x >> 29 }
    return Int(truncatingIfNeeded: x & 0xFF)
}

func now() -> Double { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9 }

func pool(_ count: Int, _ work: Int) -> Int {
    var sum = 0
    WorkerPool<Int>.run(count: count, threads: 2, work: { spin(work, $0) }, onResult: { _, r in sum &+= r }, onTick: { true })
    return sum
}

func group(_ count: Int, _ work: Int) async -> Int {
    await withTaskGroup(of: Int.self) { g in
        var sum = 0, next = 0
        for _ in 0..<min(2, count) { let i = next; next += 1; g.addTask { spin(work, i) } }
        while let r = await g.next() {
            sum &+= r
            if next < count { let i = next; next += 1; g.addTask { spin(work, i) } }
        }
        return sum
    }
}

@main struct Bench {
    static func main() async {
        for (count, work, label) in [(20000, 200, "20000 tiny jobs (~1 us)"), (400, 2_000_000, "400 jobs of ~4 ms")] {
            var tp = [Double](), tg = [Double]()
            for _ in 0..<5 {
                var t = now(); let a = pool(count, work); tp.append(now() - t)
                t = now(); let b = await group(count, work); tg.append(now() - t)
                precondition(a == b)
            }
            tp.sort(); tg.sort()
            print("\(label): WorkerPool median \(Int(tp[2] * 1e6)) us, TaskGroup median \(Int(tg[2] * 1e6)) us")
        }
    }
}
