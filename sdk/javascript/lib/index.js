"use strict";
// The kit without its side effects (arena.js adds the stdio redirection and serve): what the
// self-test and tools load in-process.

const common = require("./common");
const { Handler } = require("./server");

module.exports = {
  VERSION: common.VERSION,
  SDK: common.SDK,
  InvalidAnswer: common.InvalidAnswer,
  Clock: common.Clock,
  Result: common.Result,
  Handler,
  dynamite: require("./dynamite"),
  finger: require("./finger"),
  bidding: require("./bidding"),
  auction: require("./auction"),
  realtv: require("./realtv"),
  anygame: require("./anygame"),
  wire: require("./wire"),
};
