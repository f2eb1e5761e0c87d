import ChatBridge
import Foundation
import MatrixModel
import Testing

/// Numbers in a homeserver's answer are input from outside: none that JSON can carry (1e300, 2^63, a string of
/// twenty nines) may stop the process or cost more than the one field that holds it (issue 43).
@Suite("Matrix numbers from outside")
struct MatrixHostileNumberTests {
  @Test(
    "an origin_server_ts that is no Int64 loses only itself, not the event or the sync",
    arguments: ["1e300", "9223372036854775808", "-1e300", #""yesterday""#, "1.5", "[]"])
  func timestamp(value: String) throws {
    let json = #"""
      {"next_batch":"s1","rooms":{"join":{"!r:x":{"timeline":{"events":[
        {"type":"m.room.message","sender":"@a:x","event_id":"$1","origin_server_ts":\#(value),
         "content":{"msgtype":"m.text","body":"!help"}},
        {"type":"m.room.message","sender":"@a:x","event_id":"$2","origin_server_ts":1700000000000,
         "content":{"msgtype":"m.text","body":"hi"}}]}}}}}
      """#
    let sync = try JSONDecoder().decode(MatrixSyncResponse.self, from: Data(json.utf8))
    let events = try #require(sync.rooms?.join?["!r:x"]?.timeline?.events)
    #expect(events.map(\.eventID) == ["$1", "$2"])
    #expect(events[0].originServerTS == (value == "1.5" ? 1 : nil) || events[0].originServerTS == nil)
    #expect(events[1].originServerTS == 1_700_000_000_000)
  }

  @Test(
    "a power level no Int holds is left out (the user has the room's default), never trapped on",
    arguments: ["1e300", "9223372036854775808", "-1e300", #""99999999999999999999""#])
  func powerLevel(value: String) throws {
    let content = try JSONDecoder().decode(
      JSONValue.self, from: Data(#"{"users":{"@a:x":\#(value),"@b:x":100},"users_default":\#(value)}"#.utf8))
    let levels = MatrixPowerLevels(content: content)
    #expect(levels.level(of: "@b:x") == 100)
    #expect(levels.level(of: "@a:x") == 0)
  }
}
