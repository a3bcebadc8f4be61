package io.dsched.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Makes {@code RESULTS.md} from the raw reports that runs of the module wrote under {@code
 * results/}: the reports and which of their workloads it shows are listed in {@value #LIST}, one
 * per line, with a title when the workloads alone would not tell the report from another; each is copied as the run wrote it (where its numbers come from, then the tables and
 * notes of the workloads named), grouped by database. So the page never says what a report does
 * not.
 */
public final class ResultsPage {

    /** The list of reports, under the results folder. */
    static final String LIST = "results-page.txt";

    private static final String RAW_REPORT = "# dsched benchmark, ";

    private final Path results;

    /**
     * @param results the folder that holds the reports and their list
     */
    ResultsPage(Path results) {
        this.results = results;
    }

    /**
     * Writes {@code RESULTS.md} beside the results folder.
     * @param args the results folder, {@code results} by default
     * @throws IOException when a report cannot be read or the page written
     */
    public static void main(String[] args) throws IOException {
        Path results = Path.of((args.length > 0) ? args[0] : "results");
        Path page = results.toAbsolutePath().getParent().resolve("RESULTS.md");
        Files.writeString(page, new ResultsPage(results).render(), StandardCharsets.UTF_8);
        System.out.println("Wrote " + page);
    }

    /**
     * @return the page's text
     * @throws IllegalStateException when a listed report is not a raw report or lacks a workload
     *     named for it
     */
    String render() {
        Map<String, List<String>> byDatabase = new LinkedHashMap<>();
        for (Listed listed : listed()) {
            Report report = Report.read(this.results, listed.path());
            byDatabase
                    .computeIfAbsent(report.database(), (ignored) -> new ArrayList<>())
                    .add(report.render(listed.workloads(), listed.title()));
        }
        StringBuilder page = new StringBuilder();
        page.append("# Benchmark results\n\n");
        page.append("Generated from the raw reports that runs of this module wrote under `results/`, which\n")
                .append("`results/")
                .append(LIST)
                .append("` lists with the workloads taken from each; every table and note below is the\n")
                .append("report's own. Do not edit this page: change the list, or add a report, and run\n")
                .append("`./mvnw -B -Presults -pl benchmarks -am package -DskipTests`; the module's tests fail while\n")
                .append("the page and the reports disagree. Each report says where its numbers come from: its runs\n")
                .append(
                        "are of different commits and days, and only a report's own contestants ran beside each other.\n")
                .append("How the module measures: [README.md](README.md).\n");
        byDatabase.forEach((database, sections) -> {
            page.append("\n## ").append(database).append('\n');
            sections.forEach((section) -> page.append('\n').append(section));
        });
        return page.toString();
    }

    /**
     * The reports listed, in their order: a path under the results folder, the workloads, and
     * perhaps a title.
     */
    List<Listed> listed() {
        List<Listed> listed = new ArrayList<>();
        for (String line : lines(this.results.resolve(LIST))) {
            String entry = line.strip();
            if (entry.isEmpty() || entry.startsWith("#")) {
                continue;
            }
            String[] parts = entry.split("\\s+", 3);
            if (parts.length < 2) {
                throw new IllegalStateException(
                        "Expected a report, its workloads and perhaps a title, such as 'dir/report.md W1,W3': "
                                + entry);
            }
            listed.add(new Listed(
                    parts[0], Set.copyOf(List.of(parts[1].split(","))), (parts.length > 2) ? parts[2] : null));
        }
        return listed;
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The text with each of its headings two levels down, below the page's own. */
    static String demoted(String text) {
        return text.lines()
                .map((line) -> line.startsWith("#") ? "##" + line : line)
                .collect(Collectors.joining("\n"));
    }

    /**
     * A report listed for the page.
     * @param path its path under the results folder
     * @param workloads the workloads taken from it, by the first word of their section's heading
     *     ({@code W1}, {@code Scale}, {@code Ceiling})
     * @param title what tells the report from another of the same workloads, or {@code null}
     */
    record Listed(String path, Set<String> workloads, String title) {}

    /**
     * A raw report: its database, where its numbers come from, and its sections.
     * @param path its path under the results folder
     * @param database the database it ran on, as the page names it
     * @param provenance its lines that say where its numbers come from
     * @param sections its sections, each from its heading, by the heading's first word; a word
     *     may head more than one
     */
    record Report(String path, String database, List<String> provenance, List<Map.Entry<String, String>> sections) {

        static Report read(Path results, String path) {
            Path file = results.resolve(path);
            if (!Files.isRegularFile(file)) {
                throw new IllegalStateException("No report " + path + " under " + results);
            }
            List<String> lines = lines(file);
            if (lines.isEmpty() || !lines.get(0).startsWith(RAW_REPORT)) {
                throw new IllegalStateException(path + " is not a raw report of the module");
            }
            String database =
                    databaseName(lines.get(0).substring(RAW_REPORT.length()).strip());
            List<String> provenance = new ArrayList<>();
            List<Map.Entry<String, String>> sections = new ArrayList<>();
            StringBuilder section = null;
            String word = null;
            for (String line : lines.subList(1, lines.size())) {
                if (line.startsWith("## ")) {
                    if (section != null) {
                        sections.add(Map.entry(word, section.toString()));
                    }
                    word = line.substring(3).split("[\\s:,]", 2)[0];
                    section = new StringBuilder();
                }
                if (section != null) {
                    section.append(line).append('\n');
                } else if (line.startsWith("- ")) {
                    provenance.add(line);
                }
            }
            if (section != null) {
                sections.add(Map.entry(word, section.toString()));
            }
            return new Report(path, database, provenance, sections);
        }

        private static String databaseName(String name) {
            return switch (name.toLowerCase(Locale.ROOT)) {
                case "postgresql" -> "PostgreSQL";
                case "mariadb" -> "MariaDB";
                default -> name;
            };
        }

        /** The report's part of the page: a heading, where its numbers come from, its sections. */
        String render(Set<String> workloads, String title) {
            for (String workload : workloads) {
                if (this.sections.stream()
                        .noneMatch((section) -> section.getKey().equals(workload))) {
                    throw new IllegalStateException(this.path + " has no section " + workload);
                }
            }
            List<String> named = this.sections.stream()
                    .map(Map.Entry::getKey)
                    .filter(workloads::contains)
                    .distinct()
                    .toList();
            StringBuilder part = new StringBuilder();
            part.append("### ")
                    .append(String.join(", ", named))
                    .append((title != null) ? ", " + title : "")
                    .append(": [")
                    .append(this.path)
                    .append("](results/")
                    .append(this.path)
                    .append(")\n\n");
            this.provenance.forEach((line) -> part.append(line).append('\n'));
            this.sections.stream()
                    .filter((section) -> workloads.contains(section.getKey()))
                    .forEach((section) -> part.append('\n')
                            .append(demoted(section.getValue().stripTrailing()))
                            .append('\n'));
            return part.toString();
        }
    }
}
