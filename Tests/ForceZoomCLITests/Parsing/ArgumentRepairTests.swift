import ArgumentParser
import TestSupport
import Testing

@testable import FZSystem
@testable import ForceZoomCLI
@testable import Geometry

/// Arguments as people type them (issue 24): negative numbers as values, mistyped options
/// and subcommands named with the nearest real one, invalid values answered with the valid
/// ones, flips by their usual names. In process; ArgumentRepairCLITests runs the binary.
@Suite("Arguments as people type them")
struct ArgumentRepairTests {
    static let subcommands = ForceZoom.configuration.subcommands

    /// Each subcommand names itself, as typed: the parser would otherwise derive the name
    /// from the type's (String(describing:), a scan of every protocol conformance at start-up).
    @Test func everySubcommandNamesItself() {
        for command in Self.subcommands {
            let named = command.configuration.commandName
            #expect(named != nil, "\(command) has no commandName")
            #expect(named == String(describing: command).lowercased(), "\(command): \(named ?? "nil")")
        }
        // Each command parseDirect may parse as the root names forcezoom as its super command
        // (its completion check skipped); fixture, whose kit the full parse finds, does not.
        for (name, command) in ForceZoom.subcommandTable {
            let expected = command.configuration.subcommands.isEmpty ? ForceZoom.superCommandName : nil
            #expect(command.configuration._superCommandName == expected, "\(name)")
        }
        // The table main reads the names from says what the configurations say, in order.
        #expect(ForceZoom.subcommandTable.map { $0.name } == Self.subcommands.map { $0._commandName })
        #expect(ForceZoom.subcommandNames == Self.subcommands.map { $0.configuration.commandName ?? "" })
        // The ones parseDirect leaves to the full parse, by name: those with subcommands.
        let nested = ForceZoom.subcommandTable.filter { !$0.command.configuration.subcommands.isEmpty }
        #expect(ForceZoom.withSubcommands == nested.map { $0.name })
    }

    @Test func negativeNumbersAreValues() throws {
        let joined = ArgumentRepair.joiningNegativeValues(
            ["transform", "a.png", "--rotate", "-30", "--scale", "-1,1", "--translate", "-5,10", "-o", "x.png"],
            subcommands: Self.subcommands)
        #expect(joined == ["transform", "a.png", "--rotate=-30", "--scale=-1,1", "--translate=-5,10", "-o", "x.png"])
        let transform = try Transform.parse(Array(joined.dropFirst()))
        #expect(transform.rotate == [-30] && transform.scale.first?.values == [-1, 1])
        // Only options that take a value; a flag followed by a number and names after -- stay.
        #expect(
            ArgumentRepair.joiningNegativeValues(
                ["crop", "a.png", "--json", "-5", "--", "--at", "-1"], subcommands: Self.subcommands)
                == ["crop", "a.png", "--json", "-5", "--", "--at", "-1"])
        for (text, number) in [
            ("-30", true), ("-0.5", true), ("-5%,10%", true), ("-.5", true), ("-o", false), ("-5x.png", false),
            ("-", false),
        ] {
            #expect(ArgumentRepair.isNegativeNumber(text) == number, "\(text)")
        }
    }

    @Test func unknownNamesGetTheNearestRealOne() {
        #expect(
            ArgumentRepair.unknownOption(["crop", "a.png", "--atx", "5,5"], subcommands: Self.subcommands)?.contains(
                "'--atx' for 'crop'; did you mean '--at'?") == true)
        // A value that looks like an option belongs to the option before it.
        #expect(
            ArgumentRepair.unknownOption(
                ["crop", "a.png", "--at", "5,5", "-o", "--x.png"], subcommands: Self.subcommands) == nil)
        #expect(
            ArgumentRepair.unknownOption(["crop", "a.png", "--zzzzzz"], subcommands: Self.subcommands)
                == "unknown option '--zzzzzz' for 'crop'")
        let names = ForceZoom.subcommandNames
        #expect(
            ArgumentRepair.unknownSubcommand(["crp", "a.png"], names: names)?.hasPrefix(
                "unknown subcommand 'crp'; did you mean 'crop'?") == true)
        #expect(
            ArgumentRepair.unknownSubcommand(["thumbs", "a.png"], names: names)?.contains("did you mean 'thumb'?")
                == true)
        #expect(ArgumentRepair.unknownSubcommand(["crop", "a.png"], names: names) == nil)
        #expect(ArgumentRepair.unknownSubcommand(["--help"], names: names) == nil)
        #expect(ArgumentRepair.distance("kitten", "sitting") == 3 && ArgumentRepair.distance("", "ab") == 2)
    }

    @Test func invalidValuesListTheValidOnes() {
        let colour = ArgumentRepair.withValidValues("The value 'pink' is invalid for '--background <color>'")
        #expect(
            colour.hasPrefix("--background 'pink' is not valid;") && colour.contains("transparent")
                && colour.contains("#RRGGBB"))
        let screen = ArgumentRepair.withValidValues("The value 'iphone15' is invalid for '--screen <wxh|name>'")
        #expect(screen.contains("did you mean 'iphone-15'?") && Device.all.allSatisfy { screen.contains($0.name) })
        // A message the table knows nothing of is left as the parser wrote it.
        let other = "The value 'q' is invalid for '--quality <q>'"
        #expect(ArgumentRepair.withValidValues(other) == other)
    }

    /// `--screen` means points for the peek's side and pixels for renders; each command
    /// also takes the name that says which.
    @Test func screenNamesSayTheirUnit() throws {
        let crop = try Crop.parse(["a.png", "--at", "1,1", "--screen-points", "iphone-15"])
        #expect(crop.screen?.points == PixelSize(width: 393, height: 852))
        let fit = try Fit.parse(["a.png", "--screen-pixels", "1179x2556"])
        #expect(fit.screenPixels == PixelSize(width: 1179, height: 2556))
        #expect(throws: (any Error).self) { try Crop.parse(["a.png", "--at", "1,1", "--screen-pixels", "390x844"]) }
    }

    @Test func flipsAreStepsInOrder() throws {
        let t = try Transform.parse(["a.png", "--flip", "--rotate", "90", "--flop"])
        let steps = t.steps(in: ["transform", "a.png", "--flip", "--rotate", "90", "--flop"])
        let expected = AffineTransform.scale(1, -1).then(.rotation(degrees: 90)).then(.scale(-1, 1))
        #expect(steps == expected)
        #expect(t.quarterTurns == nil, "a mirror is no quarter turn")
    }
}
