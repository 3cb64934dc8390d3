// Nothing: see package.json. No package of the tree imports @scarf/scarf; its one use was its install script.
module.exports = {};
