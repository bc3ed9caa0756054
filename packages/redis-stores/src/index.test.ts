import { describe, expect, it } from "vitest";
import * as root from "./index";

describe("public surface", () => {
  it("pins the root entry's exports", () => {
    expect(Object.keys(root).sort()).toEqual(["connectRedis", "createRedisEventStore", "createRedisMessageBus", "createRedisRequestJournal", "createRedisSessionStore", "createRedisStores", "createRedisTaskStore"]);
  });
});
