#!/usr/bin/env perl
# Generates the mock server's token alphabets from the Unicode Character Database that
# ships with Perl (Unicode::UCD), so the table and its documentation come from one source:
#   Sources/ZeroPiiMockServer/Tokens/TokenAlphabets+Table.swift  (the table the cipher reads)
#   Docs/TokenAlphabets.md                                (the same table, for people)
# An alphabet is every letter or number of one script, one general category and one
# Unicode block; decimal digits are split into their runs of ten (0 to 9), so a digit
# is replaced by a digit of its own set. Run from the repository root:
#   perl Scripts/generate-token-alphabets.pl
use strict;
use warnings;
use Unicode::UCD qw(prop_invmap charinfo charblock);

my ($scriptList, $scriptMap) = prop_invmap('Script');
my ($categoryList, $categoryMap) = prop_invmap('General_Category');
my ($blockList, $blockMap) = prop_invmap('Block');

sub lookup {
    my ($list, $map, $codePoint) = @_;
    my ($low, $high) = (0, $#$list);
    while ($low < $high) {
        my $middle = int(($low + $high + 1) / 2);
        if ($list->[$middle] <= $codePoint) { $low = $middle } else { $high = $middle - 1 }
    }
    return $map->[$low];
}

my %boundary;
$boundary{$_} = 1 for (@$scriptList, @$categoryList, @$blockList);
my @bounds = sort { $a <=> $b } grep { $_ <= 0x10FFFF } keys %boundary;
push @bounds, 0x110000;

my @ranges;    # [start, end, key]
for my $index (0 .. $#bounds - 1) {
    my ($start, $end) = ($bounds[$index], $bounds[$index + 1] - 1);
    my $category = lookup($categoryList, $categoryMap, $start);
    next unless $category =~ /^[LN]/;
    my $key = join("\t", lookup($scriptList, $scriptMap, $start), $category, lookup($blockList, $blockMap, $start));
    if ($category eq 'Nd') {
        for (my $digit = $start; $digit <= $end; $digit += 10) { push @ranges, [$digit, $digit + 9, "$key\t$digit"] }
        next;
    }
    if (@ranges && $ranges[-1][2] eq $key && $ranges[-1][1] == $start - 1) { $ranges[-1][1] = $end }
    else { push @ranges, [$start, $end, $key] }
}

my (%cellID, @cells);
for my $range (@ranges) {
    unless (exists $cellID{$range->[2]}) { $cellID{$range->[2]} = scalar @cells; push @cells, { key => $range->[2], ranges => [], size => 0 } }
    my $cell = $cells[$cellID{$range->[2]}];
    push @{$cell->{ranges}}, [$range->[0], $range->[1]];
    $cell->{size} += $range->[1] - $range->[0] + 1;
}

# Two editions of the alphabets, since a vault keeps the token function it was created
# with (Docs/Protocol.md, *Vault formats*). They differ only for the characters alone in
# their block's alphabet (U+1D2B CYRILLIC LETTER SMALL CAPITAL EL, alone among the
# Cyrillic lower-case letters of Phonetic Extensions):
# - vaults of formats 2 to 4: such a character joins the largest alphabet of its script
#   and category, so as few characters as possible stay in place; but then `н` may
#   become `ᴫ`, which ordinary fonts do not show;
# - format 5 ("readable"): the lonely characters of a script and category form one
#   alphabet of their own, so the alphabets of the blocks people write in keep only
#   their own letters; a lonely character with no other of its script and category,
#   or of the Common or Inherited script, stays in place.
for my $cell (@cells) { $cell->{ownSize} = $cell->{size}; $cell->{ownRanges} = [@{$cell->{ranges}}] }
my %largest;
for my $cell (@cells) {
    next if $cell->{size} < 2;
    my ($script, $category) = split /\t/, $cell->{key};
    my $group = "$script\t$category";
    $largest{$group} = $cell if !$largest{$group} || $largest{$group}{size} < $cell->{size};
}
for my $cell (@cells) {
    my ($script, $category) = split /\t/, $cell->{key};
    if ($cell->{size} == 1 && $largest{"$script\t$category"}) {
        my $target = $largest{"$script\t$category"};
        push @{$target->{ranges}}, @{$cell->{ranges}};
        $target->{size} += 1;
        $target->{joined} = ($target->{joined} // 0) + 1;
        $cell->{mergedInto} = $target;
    }
}
my $number = 0;
for my $cell (@cells) { $cell->{id} = $number++ unless $cell->{mergedInto} }
for my $cell (@cells) { $cell->{id} = $cell->{mergedInto}{id} if $cell->{mergedInto} }
for my $range (@ranges) { $range->[3] = $cells[$cellID{$range->[2]}]{id} }

my (%pool, @pools);
for my $cell (@cells) {
    next unless $cell->{mergedInto};
    my ($script, $category, $block) = split /\t/, $cell->{key};
    # Common and Inherited are no scripts people write in but marks shared by many
    # (U+30FC, the katakana length mark, and U+0640, the Arabic tatweel, are both Common
    # Lm): each stays in place rather than become a mark of another writing system.
    my $group = $script eq 'Common' || $script eq 'Inherited' ? "$script\t$category\t$cell->{ranges}[0][0]" : "$script\t$category";
    unless ($pool{$group}) {
        $pool{$group} = { group => $group, ranges => [], size => 0, blocks => [], id => 0 };
        push @pools, $pool{$group};
    }
    push @{$pool{$group}{ranges}}, @{$cell->{ranges}};
    $pool{$group}{size} += 1;
    push @{$pool{$group}{blocks}}, $block;
    $cell->{pool} = $pool{$group};
}
$_->{id} = $number++ for @pools;
for my $range (@ranges) {
    my $cell = $cells[$cellID{$range->[2]}];
    $range->[4] = $cell->{pool}{id} if $cell->{pool};
}
my @lonely = grep { $_->{mergedInto} } @cells;
@cells = grep { !$_->{mergedInto} } @cells;
for my $cell (@cells) { @{$cell->{ranges}} = sort { $a->[0] <=> $b->[0] } @{$cell->{ranges}} }

my $version = Unicode::UCD::UnicodeVersion();
open(my $swift, '>', 'Sources/ZeroPiiMockServer/Tokens/TokenAlphabets+Table.swift') or die $!;
print $swift "// Generated by Scripts/generate-token-alphabets.pl from Unicode $version; do not edit.\n\n";
print $swift "extension TokenAlphabets {\n";
print $swift "    /// The Unicode version the table was generated from.\n";
print $swift "    static let unicodeVersion = \"$version\"\n\n";
print $swift "    /// One line per range of letters or numbers: first and last scalar and alphabet\n";
print $swift "    /// number, in hexadecimal, ordered by first scalar. A fourth number is the range's\n";
print $swift "    /// alphabet in the readable edition, where it differs (a character alone in its\n";
print $swift "    /// block's alphabet).\n";
print $swift "    static let table = \"\"\"\n";
for my $range (@ranges) {
    printf $swift "        %X %X %X", $range->[0], $range->[1], $range->[3];
    printf $swift " %X", $range->[4] if defined $range->[4];
    print $swift "\n";
}
print $swift "        \"\"\"\n}\n";
close $swift;

sub rangeList {
    my ($ranges, $most) = @_;
    my @parts = map { $_->[0] == $_->[1] ? sprintf('%04X', $_->[0]) : sprintf('%04X–%04X', $_->[0], $_->[1]) } @$ranges;
    return @parts > $most ? join(', ', @parts[0 .. $most - 1]) . sprintf(' and %d more', @parts - $most) : join(', ', @parts);
}
sub characterName {
    my ($codePoint) = @_;
    return sprintf('U+%04X %s', $codePoint, charinfo($codePoint)->{name} // '');
}

# The readable edition's alphabets: each block's own letters, and the pools.
my @readable = map { { key => $_->{key}, size => $_->{ownSize}, ranges => [sort { $a->[0] <=> $b->[0] } @{$_->{ownRanges}}] } } @cells;
for my $pool (@pools) {
    my ($script, $category) = split /\t/, $pool->{group};
    push @readable, { key => "$script\t$category\t(alone in: " . join(', ', @{$pool->{blocks}}) . ')', size => $pool->{size},
        ranges => [sort { $a->[0] <=> $b->[0] } @{$pool->{ranges}}] };
}
my @singletons = grep { $_->{size} == 1 } @readable;

open(my $markdown, '>', 'Docs/TokenAlphabets.md') or die $!;
print $markdown "# The mock server's token alphabets\n\n";
print $markdown "Generated by `Scripts/generate-token-alphabets.pl` from Unicode $version (Perl's Unicode::UCD); do not edit.\n\n";
print $markdown "Every letter or number (general category L or N) is replaced by another member of its\n";
print $markdown "alphabet: the characters of the same script, the same general category (so the same\n";
print $markdown "case: `Lu` upper, `Ll` lower, `Lt` title, `Lm` modifier, `Lo` other letters; `Nd` decimal\n";
print $markdown "digits, `Nl` letter numbers, `No` other numbers) and the same Unicode block, so a\n";
print $markdown "letter of basic Cyrillic stays in basic Cyrillic and a Vietnamese letter of Latin\n";
print $markdown "Extended Additional stays there. Decimal digits are split into their sets of ten, `0`\n";
print $markdown "to `9`. A character alone in its block among the letters of its script and category\n";
print $markdown "(U+1D2B CYRILLIC LETTER SMALL CAPITAL EL, the only Cyrillic lower-case letter of\n";
print $markdown "Phonetic Extensions) joins the other such characters of its script and category, or stays\n";
print $markdown "in place when there is none, or when it is of the Common or Inherited script (U+30FC, the\n";
print $markdown "katakana length mark in `ケーキ`); see `Docs/Protocol.md`, *Tokens*.\n\n";
print $markdown "These are the alphabets of vaults of format 5, the format of every new vault. Vaults\n";
print $markdown "created before it keep their tokens, and so their alphabets: see the last section.\n\n";
print $markdown "## Alphabets with one member\n\n";
print $markdown "A character alone in its alphabet has no other letter to become, so it stays in place; a\n";
print $markdown "value whose only letters and digits are such characters is its own token. There are\n";
print $markdown scalar(@singletons), ":\n\n";
print $markdown "| character | script | category | block |\n| --- | --- | --- | --- |\n";
for my $cell (sort { $a->{ranges}[0][0] <=> $b->{ranges}[0][0] } @singletons) {
    my ($script, $category, $block) = split /\t/, $cell->{key};
    $block = charblock($cell->{ranges}[0][0]) if $block =~ /^\(/;
    printf $markdown "| %s | %s | %s | %s |\n", characterName($cell->{ranges}[0][0]), $script, $category, $block;
}
print $markdown "\n## Every alphabet\n\n";
print $markdown "| script | category | block | size | ranges |\n| --- | --- | --- | ---: | --- |\n";
for my $cell (sort { $a->{key} cmp $b->{key} || $a->{ranges}[0][0] <=> $b->{ranges}[0][0] } @readable) {
    my ($script, $category, $block) = split /\t/, $cell->{key};
    printf $markdown "| %s | %s | %s | %d | %s |\n", $script, $category, $block, $cell->{size}, rangeList($cell->{ranges}, 6);
}
print $markdown "\n## Vaults created before format 5\n\n";
print $markdown "Vaults of formats 2 to 4 keep the alphabets they were created with, so their tokens\n";
print $markdown "never change: there, each of these ", scalar(@lonely), " characters is part of the largest alphabet of its\n";
print $markdown "script and category, and `н` may become `ᴫ` or `ặ` `ↄ`. Every other alphabet is the same\n";
print $markdown "in both editions.\n\n";
print $markdown "| character | script | category | before format 5, part of the alphabet of | format 5 |\n| --- | --- | --- | --- | --- |\n";
for my $cell (sort { $a->{ranges}[0][0] <=> $b->{ranges}[0][0] } @lonely) {
    my ($script, $category) = split /\t/, $cell->{key};
    my (undef, undef, $targetBlock) = split /\t/, $cell->{mergedInto}{key};
    my $pool = $cell->{pool};
    my $now = $pool->{size} == 1 ? 'stays in place' : sprintf('one of %d lonely %s %s characters', $pool->{size}, $script, $category);
    printf $markdown "| %s | %s | %s | %s | %s |\n", characterName($cell->{ranges}[0][0]), $script, $category, $targetBlock, $now;
}
close $markdown;
printf STDERR "%d ranges, %d alphabets, %d with one member, %d lonely characters in %d pools\n", scalar @ranges,
    scalar @readable, scalar @singletons, scalar @lonely, scalar @pools;
