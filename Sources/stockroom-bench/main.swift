// Logic lives in types: closures written at top level here would be main-actor isolated.
Bench.run(arguments: Array(CommandLine.arguments.dropFirst()))
