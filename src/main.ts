// Placeholder entry point; replaced by the CLI below as commands land.
console.log('callscore');
