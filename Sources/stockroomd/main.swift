import StockroomServer

ServerMain.run(arguments: Array(CommandLine.arguments.dropFirst()))
