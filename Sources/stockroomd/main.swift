import StockroomDaemon

ServerMain.run(arguments: Array(CommandLine.arguments.dropFirst()))
