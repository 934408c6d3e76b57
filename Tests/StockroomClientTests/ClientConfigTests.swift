import StockroomClient
import Testing

@Suite("~/.config/stockroom/config", .timeLimit(.minutes(30)))
struct ClientConfigTests {
  @Test("key = value lines with comments; colour spelt either way; pager on, off or a command")
  func parses() throws {
    let text = """
      # my shop
      host = shop.example   
      port=7879
        user = alice
      colour = off

      pager = most -s
      """
    let config = try ClientConfig.parse(text, path: "/c")
    #expect(config.host == "shop.example")
    #expect(config.port == 7879)
    #expect(config.user == "alice")
    #expect(config.color == false)
    #expect(config.pager == .command("most -s"))
    #expect(try ClientConfig.parse("pager = off", path: "/c").pager == .off)
    #expect(try ClientConfig.parse("color = auto\npager = on", path: "/c").pager == .automatic)
  }

  @Test("mistakes name the file and line; a password is refused, pointing to --password-file")
  func mistakes() throws {
    let cases: [(String, String)] = [
      ("host = a\ncolr = off", "/c:2: unknown key 'colr'"),
      ("port = 70000", "/c:1: port takes a number from 1 to 65535"),
      ("\n\ncolor = pink", "/c:3: color takes auto or off, not 'pink'"),
      ("just words", "/c:1: expected key = value"),
      ("user = a\nuser = b", "/c:2: 'user' is set twice"),
      ("host =", "/c:1: 'host' has no value"),
      ("password = hunter2", "/c:1: a password does not belong in the config file; use --password-file"),
    ]
    for (text, expected) in cases {
      do {
        _ = try ClientConfig.parse(text, path: "/c")
        Issue.record("accepted: \(text)")
      } catch {
        #expect(error.message.hasPrefix(expected), "\(error.message)")
        #expect(!error.message.contains("hunter2"))
      }
    }
  }

  @Test("XDG_CONFIG_HOME when absolute, else HOME/.config")
  func location() {
    #expect(ClientConfig.path(environment: ["HOME": "/h"]) == "/h/.config/stockroom/config")
    #expect(
      ClientConfig.path(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "/x"]) == "/x/stockroom/config")
    #expect(
      ClientConfig.path(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "rel"]) == "/h/.config/stockroom/config")
  }

  @Test("the file is below the environment, and the command line is above both")
  func precedence() throws {
    var config = ClientConfig()
    config.host = "from-file"
    config.port = 1111
    config.user = "file-user"
    config.color = false
    config.pager = .off
    let options = try #require(
      try ClientOptions.parse(
        ["-p", "3333"], environment: ["STOCKROOM_PORT": "2222", "STOCKROOM_USER": "env-user"], config: config
      ).runOptions)
    #expect(options.host == "from-file")
    #expect(options.port == 3333)
    #expect(options.user == "env-user")
    #expect(options.noColor)
    #expect(options.pager == .off)
  }
}

@Suite(
  "The REPL's settings in the config file: timing, json, wide, highlight, prompt, startup", .timeLimit(.minutes(30)))
struct ClientConfigREPLTests {
  @Test("switches take on or off, the prompt keeps its quoted spaces, startup lines keep their order")
  func replSettings() throws {
    let text = """
      timing = on
      json = off
      wide = ON
      highlight = off
      prompt = "%@%h:%p %s> "
      startup = WHOAMI
      startup = WATCH banana
      """
    let config = try ClientConfig.parse(text, path: "/c")
    #expect(config.timing == true && config.json == false && config.wide == true && config.highlight == false)
    guard case .run(let options) = try ClientOptions.parse([], config: config) else {
      Issue.record("no options")
      return
    }
    #expect(!options.highlight)
    #expect(config.prompt == PromptFormat("%@%h:%p %s> "))
    #expect(config.startup == ["WHOAMI", "WATCH banana"])
    for (text, expected) in [
      ("timing = yes", "/c:1: timing takes on or off, not 'yes'"),
      ("json = on\njson = off", "/c:2: 'json' is set twice"),
      ("highlight = auto", "/c:1: highlight takes on or off, not 'auto'"),
    ] {
      do {
        _ = try ClientConfig.parse(text, path: "/c")
        Issue.record("accepted: \(text)")
      } catch {
        #expect(error.message == expected)
      }
    }
  }

  @Test("the prompt's % words: user, user@, host, port, state, a percent sign; others as written")
  func promptWords() {
    let format = PromptFormat("[%u|%@|%h|%p|%s|%%|%x]%")
    #expect(
      format.expand(user: "alice", host: "shop", port: 7878, connected: true) == "[alice|alice@|shop|7878||%|%x]%")
    #expect(format.expand(user: nil, host: "shop", port: 1, connected: false) == "[||shop|1|not connected|%|%x]%")
    #expect(
      PromptFormat.standard.expand(user: "bob", host: "127.0.0.1", port: 7878, connected: true)
        == "stockroom bob@127.0.0.1:7878> ")
  }
}
