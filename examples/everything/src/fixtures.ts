/**
 * The fixed payloads of the everything server: the texts, images and schemas the MCP
 * conformance server scenarios (`@modelcontextprotocol/conformance` 0.1.16) look for.
 */

/** A 1x1 red PNG pixel, base64. */
export const PNG_PIXEL_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A minimal WAV file (44 bytes of header, one silent sample), base64. */
export const WAV_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/** The server's identity in `initialize`. */
export const SERVER_INFO = {
  name: "proto-everything",
  title: "@proto everything server",
  version: "0.1.0",
  instructions:
    "Fixtures for MCP conformance: tools test_* (text, image, audio, resources, logging, progress, errors, " +
    "sampling, elicitation, SSE reconnection), resources test://*, prompts test_*, logging and completions.",
} as const;

/**
 * The input schema of `json_schema_2020_12_tool` (SEP-1613; SEP-2106 adds `$anchor`, `allOf`/`anyOf` and `if`/`then`/`else`): listed exactly as written, with
 * `$schema`, `$defs` and `additionalProperties`, which a conformant server must not strip.
 */
export const JSON_SCHEMA_2020_12_INPUT = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
} as const;

/** The form of `test_elicitation_sep1034_defaults`: a default for every primitive type (SEP-1034). */
export const SEP1034_FORM = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", description: "User age", default: 30 },
    score: { type: "number", description: "User score", default: 95.5 },
    status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", description: "Verification status", default: true },
  },
  required: [],
} as const;

/** The form of `test_elicitation_sep1330_enums`: the five enum shapes of SEP-1330. */
export const SEP1330_FORM = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", description: "Select one option", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      description: "Select one option with titles",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: {
      type: "string",
      description: "Select one option (legacy)",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    untitledMulti: {
      type: "array",
      description: "Select multiple options",
      minItems: 1,
      maxItems: 3,
      items: { type: "string", enum: ["option1", "option2", "option3"] },
    },
    titledMulti: {
      type: "array",
      description: "Select multiple options with titles",
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
  required: [],
} as const;
