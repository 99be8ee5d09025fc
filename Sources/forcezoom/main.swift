import ForceZoomCLI

// The commands live in the ForceZoomCLI library so their parsing and validate() are tested
// in process (Tests/ForceZoomCLITests/Parsing); this is only the entry point.
ForceZoom.main()
