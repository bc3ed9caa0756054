import { JsonRpcErrorCode } from "@proto/jsonrpc";
import { McpErrorCode } from "@proto/mcp-protocol";
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createServer } from "../server";
import { connectSdkClient } from "../test-helpers";

function server(pageSize = 1000) {
  const s = createServer({ name: "res", version: "1.0.0" }, { pageSize });
  return s;
}

describe("resources with the official SDK client", () => {
  it("lists static resources across several pages, each once, in order", async () => {
    const s = server(3);
    for (let i = 0; i < 8; i++) s.resource({ uri: `mem://r/${i}`, name: `r${i}` }, () => `text ${i}`);
    const { client } = await connectSdkClient(s);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      seen.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 8 }, (_, i) => `mem://r/${i}`));
    await expect(client.listResources({ cursor: "not-a-cursor" })).rejects.toMatchObject({ code: JsonRpcErrorCode.InvalidParams });
  });

  it("lists templates with icons and paginates them", async () => {
    const s = server(2);
    const icons = [{ src: "https://example.com/i.png", mimeType: "image/png", sizes: ["48x48"] }];
    for (const t of ["a://{x}", "b://{x}", "c://{x}"]) s.resourceTemplate({ uriTemplate: t, name: t, icons }, () => "x");
    const { client } = await connectSdkClient(s);
    const first = await client.listResourceTemplates();
    expect(first.resourceTemplates.map((t) => t.uriTemplate)).toEqual(["a://{x}", "b://{x}"]);
    expect(first.resourceTemplates[0]?.icons).toEqual(icons);
    const second = await client.listResourceTemplates({ cursor: first.nextCursor! });
    expect(second.resourceTemplates.map((t) => t.uriTemplate)).toEqual(["c://{x}"]);
    expect(second.nextCursor).toBeUndefined();
  });

  it("reads text and base64 blobs, from static resources and templates", async () => {
    const s = server();
    s.resource({ uri: "mem://readme", name: "readme", mimeType: "text/markdown" }, () => "# Hi");
    s.resource({ uri: "mem://logo", name: "logo", mimeType: "image/png" }, () => new Uint8Array([0, 1, 2, 255]));
    s.resourceTemplate({ uriTemplate: "users://{id}/posts{?limit}", name: "posts" }, (uri, { id, limit }) => ({
      text: JSON.stringify({ uri, id, limit }),
      mimeType: "application/json",
    }));
    const { client } = await connectSdkClient(s);
    expect((await client.readResource({ uri: "mem://readme" })).contents).toEqual([{ uri: "mem://readme", mimeType: "text/markdown", text: "# Hi" }]);
    expect((await client.readResource({ uri: "mem://logo" })).contents).toEqual([{ uri: "mem://logo", mimeType: "image/png", blob: "AAEC/w==" }]);
    const post = await client.readResource({ uri: "users://42/posts?limit=5" });
    expect(JSON.parse((post.contents[0] as { text: string }).text)).toEqual({ uri: "users://42/posts?limit=5", id: "42", limit: "5" });
  });

  it("answers -32002 for an unknown URI and for a reader that returns undefined", async () => {
    const s = server();
    s.resourceTemplate({ uriTemplate: "users://{id}", name: "user" }, (_uri, { id }) => (id === "1" ? "alice" : undefined));
    const { client } = await connectSdkClient(s);
    await expect(client.readResource({ uri: "nope://x" })).rejects.toMatchObject({ code: McpErrorCode.ResourceNotFound });
    await expect(client.readResource({ uri: "users://2" })).rejects.toMatchObject({ code: McpErrorCode.ResourceNotFound });
    await expect(client.readResource({ uri: "users://1" })).resolves.toMatchObject({ contents: [{ text: "alice" }] });
  });

  it("never reaches a template's reader with a variable left empty, unless the template makes it optional", async () => {
    const s = server();
    const seen: unknown[] = [];
    s.resourceTemplate({ uriTemplate: "test://template/{id}/data", name: "data" }, (_uri, vars) => (seen.push({ ...vars }), `id ${String(vars.id)}`));
    s.resourceTemplate({ uriTemplate: "test://search{?q,limit}", name: "search", optional: ["limit"] }, (_uri, vars) => (seen.push({ ...vars }), "found"));
    expect(() => s.resourceTemplate({ uriTemplate: "test://x/{a}", name: "x", optional: ["b" as never] }, () => "x")).toThrow(/optional names "b"/);
    const { client } = await connectSdkClient(s);
    await expect(client.readResource({ uri: "test://template//data" })).rejects.toMatchObject({ code: McpErrorCode.ResourceNotFound });
    await expect(client.readResource({ uri: "test://search?limit=3" })).rejects.toMatchObject({ code: McpErrorCode.ResourceNotFound });
    expect(seen).toEqual([]);
    await expect(client.readResource({ uri: "test://template/7/data" })).resolves.toMatchObject({ contents: [{ text: "id 7" }] });
    await expect(client.readResource({ uri: "test://search?q=cats" })).resolves.toMatchObject({ contents: [{ text: "found" }] });
    expect(seen).toEqual([{ id: "7" }, { q: "cats" }]);
  });

  it("sends resources/updated only to sessions subscribed to that URI", async () => {
    const s = server();
    const handle = s.resource({ uri: "mem://a", name: "a" }, () => "a");
    s.resource({ uri: "mem://b", name: "b" }, () => "b");
    const one = await connectSdkClient(s);
    const two = await connectSdkClient(s);
    const got: Record<string, string[]> = { one: [], two: [] };
    const arrived = (name: string) =>
      new Promise<void>((resolve) => {
        const client = name === "one" ? one.client : two.client;
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
          got[name]!.push(n.params.uri);
          resolve();
        });
      });
    const oneGot = arrived("one");
    const twoGot = arrived("two");
    await one.client.subscribeResource({ uri: "mem://a" });
    await two.client.subscribeResource({ uri: "mem://b" });
    expect(s.resourceUpdated("mem://a")).toBe(1);
    handle.updated();
    await oneGot;
    expect(s.resourceUpdated("mem://b")).toBe(1);
    await twoGot;
    await one.client.ping();
    await two.client.ping();
    expect(got).toEqual({ one: ["mem://a", "mem://a"], two: ["mem://b"] });
    await one.client.unsubscribeResource({ uri: "mem://a" });
    expect(s.resourceUpdated("mem://a")).toBe(0);
    await expect(one.client.subscribeResource({ uri: "mem://missing" })).rejects.toMatchObject({ code: McpErrorCode.ResourceNotFound });
  });

  it("forgets a closed session's subscriptions", async () => {
    const s = server();
    s.resource({ uri: "mem://a", name: "a" }, () => "a");
    const { client, session } = await connectSdkClient(s);
    await client.subscribeResource({ uri: "mem://a" });
    expect(s.resourceUpdated("mem://a")).toBe(1);
    await session.close();
    await session.closed;
    expect(s.resourceUpdated("mem://a")).toBe(0);
  });

  it("sends one list_changed per burst of changes", async () => {
    const s = server();
    s.resource({ uri: "mem://a", name: "a" }, () => "a");
    const { client } = await connectSdkClient(s);
    let count = 0;
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        count++;
        resolve();
      }),
    );
    s.resource({ uri: "mem://b", name: "b" }, () => "b");
    s.resourceTemplate({ uriTemplate: "t://{x}", name: "t" }, () => "t");
    s.removeResource("mem://a");
    await changed;
    await client.ping();
    expect(count).toBe(1);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["mem://b"]);
  });

  it("lists what templates enumerate after the static resources, paginated together", async () => {
    const s = server(2);
    s.resource({ uri: "users://1", name: "static one" }, () => "1");
    let users = ["1", "2", "3"];
    s.resourceTemplate(
      { uriTemplate: "users://{id}", name: "user", list: () => users.map((id) => ({ uri: `users://${id}`, name: `user ${id}`, mimeType: "text/plain" })) },
      (_uri, { id }) => `user ${String(id)}`,
    );
    const { client } = await connectSdkClient(s);
    const first = await client.listResources();
    expect(first.resources).toEqual([
      { uri: "users://1", name: "static one" },
      { uri: "users://2", name: "user 2", mimeType: "text/plain" },
    ]);
    const second = await client.listResources({ cursor: first.nextCursor! });
    expect(second.resources.map((r) => r.uri)).toEqual(["users://3"]);
    expect(second.nextCursor).toBeUndefined();
    users = ["9"];
    await expect(client.listResources({ cursor: first.nextCursor! })).rejects.toMatchObject({ code: JsonRpcErrorCode.InvalidParams });
  });

  it("answers -32603 when a template's list() returns garbage", async () => {
    const s = server();
    s.resourceTemplate({ uriTemplate: "x://{id}", name: "x", list: () => [{ uri: 5 }] as never }, () => "x");
    const { client } = await connectSdkClient(s);
    await expect(client.listResources()).rejects.toMatchObject({ code: JsonRpcErrorCode.InternalError });
  });

  it("advertises subscribe and listChanged", async () => {
    const s = server();
    s.resource({ uri: "mem://a", name: "a" }, () => "a");
    const { client } = await connectSdkClient(s);
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
  });
});
