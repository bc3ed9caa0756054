import { describe, expect, it } from "vitest";
import { createUriTemplate } from "./template";
import type { UriTemplateVariables } from "./expand";

// The variables of RFC 6570 sections 1.2 and 3.2.
const rfc: UriTemplateVariables = {
  count: ["one", "two", "three"],
  dom: ["example", "com"],
  dub: "me/too",
  hello: "Hello World!",
  half: "50%",
  var: "value",
  who: "fred",
  base: "http://example.com/home/",
  path: "/foo/bar",
  list: ["red", "green", "blue"],
  keys: { semi: ";", dot: ".", comma: "," },
  v: "6",
  x: "1024",
  y: "768",
  empty: "",
  empty_keys: {},
  undef: null,
};

const cases: Record<string, [string, string][]> = {
  "3.2.1 variable expansion": [
    ["{count}", "one,two,three"],
    ["{count*}", "one,two,three"],
    ["{/count}", "/one,two,three"],
    ["{/count*}", "/one/two/three"],
    ["{;count}", ";count=one,two,three"],
    ["{;count*}", ";count=one;count=two;count=three"],
    ["{?count}", "?count=one,two,three"],
    ["{?count*}", "?count=one&count=two&count=three"],
    ["{&count*}", "&count=one&count=two&count=three"],
  ],
  "3.2.2 simple string": [
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    ["{half}", "50%25"],
    ["O{empty}X", "OX"],
    ["O{undef}X", "OX"],
    ["{x,y}", "1024,768"],
    ["{x,hello,y}", "1024,Hello%20World%21,768"],
    ["?{x,empty}", "?1024,"],
    ["?{x,undef}", "?1024"],
    ["?{undef,y}", "?768"],
    ["{var:3}", "val"],
    ["{var:30}", "value"],
    ["{list}", "red,green,blue"],
    ["{list*}", "red,green,blue"],
    ["{keys}", "semi,%3B,dot,.,comma,%2C"],
    ["{keys*}", "semi=%3B,dot=.,comma=%2C"],
  ],
  "3.2.3 reserved": [
    ["{+var}", "value"],
    ["{+hello}", "Hello%20World!"],
    ["{+half}", "50%25"],
    ["{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"],
    ["{+base}index", "http://example.com/home/index"],
    ["O{+empty}X", "OX"],
    ["O{+undef}X", "OX"],
    ["{+path}/here", "/foo/bar/here"],
    ["here?ref={+path}", "here?ref=/foo/bar"],
    ["up{+path}{var}/here", "up/foo/barvalue/here"],
    ["{+x,hello,y}", "1024,Hello%20World!,768"],
    ["{+path,x}/here", "/foo/bar,1024/here"],
    ["{+path:6}/here", "/foo/b/here"],
    ["{+list}", "red,green,blue"],
    ["{+list*}", "red,green,blue"],
    ["{+keys}", "semi,;,dot,.,comma,,"],
    ["{+keys*}", "semi=;,dot=.,comma=,"],
  ],
  "3.2.4 fragment": [
    ["{#var}", "#value"],
    ["{#hello}", "#Hello%20World!"],
    ["{#half}", "#50%25"],
    ["foo{#empty}", "foo#"],
    ["foo{#undef}", "foo"],
    ["{#x,hello,y}", "#1024,Hello%20World!,768"],
    ["{#path,x}/here", "#/foo/bar,1024/here"],
    ["{#path:6}/here", "#/foo/b/here"],
    ["{#list}", "#red,green,blue"],
    ["{#list*}", "#red,green,blue"],
    ["{#keys}", "#semi,;,dot,.,comma,,"],
    ["{#keys*}", "#semi=;,dot=.,comma=,"],
  ],
  "3.2.5 label": [
    ["{.who}", ".fred"],
    ["{.who,who}", ".fred.fred"],
    ["{.half,who}", ".50%25.fred"],
    ["www{.dom*}", "www.example.com"],
    ["X{.var}", "X.value"],
    ["X{.empty}", "X."],
    ["X{.undef}", "X"],
    ["X{.var:3}", "X.val"],
    ["X{.list}", "X.red,green,blue"],
    ["X{.list*}", "X.red.green.blue"],
    ["X{.keys}", "X.semi,%3B,dot,.,comma,%2C"],
    ["X{.keys*}", "X.semi=%3B.dot=..comma=%2C"],
    ["X{.empty_keys}", "X"],
    ["X{.empty_keys*}", "X"],
  ],
  "3.2.6 path segment": [
    ["{/who}", "/fred"],
    ["{/who,who}", "/fred/fred"],
    ["{/half,who}", "/50%25/fred"],
    ["{/who,dub}", "/fred/me%2Ftoo"],
    ["{/var}", "/value"],
    ["{/var,empty}", "/value/"],
    ["{/var,undef}", "/value"],
    ["{/var,x}/here", "/value/1024/here"],
    ["{/var:1,var}", "/v/value"],
    ["{/list}", "/red,green,blue"],
    ["{/list*}", "/red/green/blue"],
    ["{/list*,path:4}", "/red/green/blue/%2Ffoo"],
    ["{/keys}", "/semi,%3B,dot,.,comma,%2C"],
    ["{/keys*}", "/semi=%3B/dot=./comma=%2C"],
  ],
  "3.2.7 path-style parameters": [
    ["{;who}", ";who=fred"],
    ["{;half}", ";half=50%25"],
    ["{;empty}", ";empty"],
    ["{;v,empty,who}", ";v=6;empty;who=fred"],
    ["{;v,bar,who}", ";v=6;who=fred"],
    ["{;x,y}", ";x=1024;y=768"],
    ["{;x,y,empty}", ";x=1024;y=768;empty"],
    ["{;x,y,undef}", ";x=1024;y=768"],
    ["{;hello:5}", ";hello=Hello"],
    ["{;list}", ";list=red,green,blue"],
    ["{;list*}", ";list=red;list=green;list=blue"],
    ["{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"],
    ["{;keys*}", ";semi=%3B;dot=.;comma=%2C"],
  ],
  "3.2.8 form-style query": [
    ["{?who}", "?who=fred"],
    ["{?half}", "?half=50%25"],
    ["{?x,y}", "?x=1024&y=768"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["{?x,y,undef}", "?x=1024&y=768"],
    ["{?var:3}", "?var=val"],
    ["{?list}", "?list=red,green,blue"],
    ["{?list*}", "?list=red&list=green&list=blue"],
    ["{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"],
    ["{?keys*}", "?semi=%3B&dot=.&comma=%2C"],
  ],
  "3.2.9 form-style query continuation": [
    ["{&who}", "&who=fred"],
    ["{&half}", "&half=50%25"],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{&x,y,empty}", "&x=1024&y=768&empty="],
    ["{&var:3}", "&var=val"],
    ["{&list}", "&list=red,green,blue"],
    ["{&list*}", "&list=red&list=green&list=blue"],
    ["{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"],
    ["{&keys*}", "&semi=%3B&dot=.&comma=%2C"],
  ],
  "1.2 levels 1 to 3, beyond section 3": [
    ["map?{x,y}", "map?1024,768"],
    ["X{#var}", "X#value"],
    ["X{.x,y}", "X.1024.768"],
    ["{var:20}", "value"],
  ],
};

describe("RFC 6570 expansion", () => {
  for (const [section, rows] of Object.entries(cases)) {
    it(section, () => {
      for (const [template, expected] of rows) expect([template, createUriTemplate(template).expand(rfc)]).toEqual([template, expected]);
    });
  }

  it("encodes non-ASCII as UTF-8 triplets and keeps existing triplets in reserved expansion", () => {
    expect(createUriTemplate("{x}").expand({ x: "é 😀" })).toBe("%C3%A9%20%F0%9F%98%80");
    expect(createUriTemplate("{+x}").expand({ x: "a%2Fb%zz[]" })).toBe("a%2Fb%25zz[]");
    expect(createUriTemplate("{x}").expand({ x: "!'()*" })).toBe("%21%27%28%29%2A");
  });

  it("writes numbers and booleans as strings, and a lone surrogate as U+FFFD", () => {
    expect(createUriTemplate("{a,b}").expand({ a: 42, b: true })).toBe("42,true");
    expect(createUriTemplate("{x}").expand({ x: "a\uD800b" })).toBe("a%EF%BF%BDb");
  });

  it("counts the prefix modifier in code points and never splits a triplet", () => {
    expect(createUriTemplate("{x:2}").expand({ x: "😀😀😀" })).toBe("%F0%9F%98%80%F0%9F%98%80");
    expect(createUriTemplate("{+x:2}").expand({ x: "%41BC" })).toBe("%41B");
  });

  it("encodes template literals that are not allowed in a URI", () => {
    expect(createUriTemplate("a b/é{x}").expand({ x: "1" })).toBe("a%20b/%C3%A91");
  });

  it("ignores inherited properties of the variables object", () => {
    const variables = Object.create({ x: "inherited" }) as UriTemplateVariables;
    expect(createUriTemplate("a{x}").expand(variables)).toBe("a");
  });

  it("refuses a prefix modifier on a list or an object", () => {
    expect(() => createUriTemplate("{list:2}").expand(rfc)).toThrow(/cannot apply to a list/);
    expect(() => createUriTemplate("{keys:2}").expand(rfc)).toThrow(TypeError);
  });
});
