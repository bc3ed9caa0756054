/** Test fixture: serves the weather server (or `--broken`) over stdio for `proto-apps verify --stdio`. */
import { serveStdio } from "@proto/transport-stdio/node";
import { createBrokenWeather, createWeather } from "./weather.fixture";

const { server } = process.argv.includes("--broken") ? createBrokenWeather() : createWeather();
await serveStdio(server);
