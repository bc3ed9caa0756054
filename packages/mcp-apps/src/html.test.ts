import { describe, expect, it } from "vitest";
import { decodeBase64Text, isHtmlDocument } from "./html";

describe("isHtmlDocument", () => {
  it("accepts documents that start with a doctype or <html>, after a BOM, white space and comments", () => {
    for (const doc of ["<!doctype html><html></html>", "<!DOCTYPE HTML>", "\uFEFF\n  <!-- built 2026 --> <!DOCTYPE html>\n<html lang=en>", "<html>", '<html lang="en">', "<!doctype html public>"]) {
      expect(isHtmlDocument(doc), doc).toBe(true);
    }
  });

  it("refuses fragments and other text", () => {
    for (const text of ["", "<div></div>", "<htmlx>", "<!doctype xml>", "hello <html>", "<!-- never closed <html>", `<!--${" ".repeat(70_000)}--><html>`]) {
      expect(isHtmlDocument(text), text.slice(0, 30)).toBe(false);
    }
  });
});

describe("decodeBase64Text", () => {
  it("decodes canonical base64 of UTF-8 and refuses the rest", () => {
    expect(decodeBase64Text(btoa("<html>"))).toBe("<html>");
    expect(decodeBase64Text(btoa(String.fromCharCode(0xc3, 0xbc)))).toBe("ü");
    expect(decodeBase64Text("abc")).toBeUndefined();
    expect(decodeBase64Text("ab!=")).toBeUndefined();
    expect(decodeBase64Text(btoa(String.fromCharCode(0xff, 0xfe)))).toBeUndefined();
  });
});
