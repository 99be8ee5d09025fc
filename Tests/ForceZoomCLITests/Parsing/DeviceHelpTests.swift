import ArgumentParser
import Geometry
import Testing

@testable import ForceZoomCLI

/// `forcezoom --help` shows the subcommands without 23 rows of devices in front of them: the
/// table is in `forcezoom help fit` (fit renders at a device's pixels), which the root help
/// names; every device the registry has is in that table.
@Suite("Device table in help")
struct DeviceHelpTests {
    @Test func rootHelpNamesTheTableInsteadOfPrintingIt() {
        let root = ForceZoom.helpMessage(for: ForceZoom.self, columns: 100)
        let rows = Device.all.filter { device in
            root.split(separator: "\n").contains { $0.drop { $0 == " " }.hasPrefix(device.name + " ") }
        }
        #expect(rows.isEmpty, "the root help prints device rows: \(rows.map(\.name))")
        #expect(root.contains("`forcezoom help fit`") && root.contains("\(Device.all.count) phones and tablets"))
        // What a reader scrolls past before the subcommands: the overview, the discussion, usage.
        let lines = root.split(separator: "\n", omittingEmptySubsequences: false)
        let subcommands = lines.firstIndex { $0.hasPrefix("SUBCOMMANDS:") } ?? lines.count
        #expect(subcommands < 45, "\(subcommands) lines before the subcommands")
    }

    @Test func fitsHelpHasEveryDevice() {
        let fit = ForceZoom.helpMessage(for: Fit.self, columns: 100)
        for device in Device.all {
            #expect(
                fit.split(separator: "\n").contains { $0.drop { $0 == " " }.hasPrefix(device.name + " ") },
                "forcezoom help fit does not list \(device.name)")
        }
    }
}
