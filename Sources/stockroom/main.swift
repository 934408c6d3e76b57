import StockroomClient

ClientMain.run(arguments: Array(CommandLine.arguments.dropFirst()))
